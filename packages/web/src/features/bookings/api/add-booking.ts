import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { bookingKeys, productMarkKeys } from '../../../lib/query-keys.ts';

/** What a booking needs to know about the product, whether it comes from a card or a wish. */
export interface BookableProduct {
  productId: string;
  productName: string;
  productPrice: number;
  productImage: string;
  inStock: string;
}

/** The booking payload of section 3. */
export interface BookingPayload {
  productId: string;
  buyerName: string;
  buyerEmail: string;
  productName: string;
  productPrice: number;
  productImage: string;
  inStock: string;
  phoneNumber: string;
  location: string;
}

export function useAddBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: BookingPayload) =>
      api<MessageResponse>('/addBooking', { method: 'POST', json: payload }),
    // Product cards show what the buyer has wished for and booked.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: bookingKeys.all }), queryClient.invalidateQueries({ queryKey: productMarkKeys.all })]),
  });
}
