import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { paymentKeys } from '../../../lib/query-keys.ts';

/** The payment record of section 3, sent once the provider reports success. */
export interface PaymentRecord {
  status: string;
  transactionId: string;
  productId: string;
  buyerName: string;
  buyerEmail: string;
  bookingId: string;
}

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: PaymentRecord) =>
      api<MessageResponse>('/payment', { method: 'POST', json: record }),
    // A sale changes the product everywhere it shows (Unavailable) and the buyer's orders. The
    // payment intent is done with: asking for it again would only be refused.
    onSettled: () => queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== paymentKeys.intents[0] }),
  });
}
