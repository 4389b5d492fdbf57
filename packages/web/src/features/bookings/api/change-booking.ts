import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { bookingKeys } from '../../../lib/query-keys.ts';

export type BuyerBookingStep = 'cancel' | 'received';

/** POST /bookings/{id}/cancel or /received: the buyer's steps of a sale. */
export function useChangeOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step }: { id: string; step: BuyerBookingStep }) =>
      api<MessageResponse>(`/bookings/${encodeURIComponent(id)}/${step}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}
