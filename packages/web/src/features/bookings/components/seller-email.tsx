import { type DataResponse, type SellerContact, trustWebTexts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { bookingKeys } from '../../../lib/query-keys.ts';

/**
 * The seller's e-mail for a buyer who booked the piece. Public answers never carry it (decision 23),
 * so it is asked for on demand from GET /products/{id}/contact; the booking itself names the phone.
 */
export function SellerEmail({ productId, productName }: { productId: string; productName: string }) {
  const [shown, setShown] = useState(false);
  const { data: contact, error } = useQuery({
    queryKey: bookingKeys.sellerContact(productId),
    queryFn: ({ signal }) => api<DataResponse<SellerContact>>(`/products/${encodeURIComponent(productId)}/contact`, { signal }).then((r) => r.data),
    enabled: shown,
    meta: { private: true },
  });
  if (!shown) {
    return (
      <button type="button" className="btn btn-xs btn-ghost" aria-label={`${trustWebTexts.showSellerEmail}: ${productName}`} onClick={() => setShown(true)}>
        {trustWebTexts.showSellerEmail}
      </button>
    );
  }
  if (error) return <span className="text-sm">{error.message}</span>;
  if (!contact) return <span className="loading loading-spinner loading-sm" aria-label={uiTexts.loading} />;
  return (
    <a href={`mailto:${contact.sellerEmail}`} className="link break-all">
      {contact.sellerEmail}
    </a>
  );
}
