import { trustWebTexts, type SellerContact as Contact } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';

/**
 * The seller's e-mail and phone for a buyer who booked the piece: public answers never carry them
 * (decision 23), so they are asked for on demand from GET /products/{id}/contact.
 */
export function SellerContact({ productId }: { productId: string }) {
  const [shown, setShown] = useState(false);
  const { data: contact, error } = useQuery({
    queryKey: ['contact', productId],
    queryFn: ({ signal }) => api<{ success: boolean; data: Contact }>(`/products/${encodeURIComponent(productId)}/contact`, { signal }).then((r) => r.data),
    enabled: shown,
    meta: { private: true },
  });
  if (!shown) {
    return (
      <button type="button" className="btn btn-sm btn-ghost" onClick={() => setShown(true)}>
        {trustWebTexts.showContact}
      </button>
    );
  }
  if (error) return <p className="text-sm">{error.message}</p>;
  if (!contact) return <span className="loading loading-spinner loading-sm" aria-label="Loading" />;
  return <p className="text-sm">{trustWebTexts.contactLine(contact.sellerName, contact.sellerEmail, contact.phone)}</p>;
}
