import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { productKeys, saleKeys } from '../../../lib/query-keys.ts';

export type SellerBookingStep = 'accept' | 'decline' | 'handover' | 'refund';

/** POST /bookings/{id}/accept, /decline (with the reason), /handover or /refund. */
export function useChangeSellerBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step, reason }: { id: string; step: SellerBookingStep; reason?: string }) =>
      api<MessageResponse>(`/bookings/${encodeURIComponent(id)}/${step}`, {
        method: 'POST',
        ...(step === 'decline' ? { json: { reason } } : {}),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: saleKeys.sellerBookings });
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
