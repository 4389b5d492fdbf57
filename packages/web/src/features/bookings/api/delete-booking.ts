import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { DeleteResponse } from '@furniture/contract';
import { bookingKeys, productMarkKeys } from '../../../lib/query-keys.ts';

export function useDeleteBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<DeleteResponse>('/bookingDelete', { method: 'DELETE', query: { id } }),
    // Product cards show what the buyer has wished for and booked.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: bookingKeys.all }), queryClient.invalidateQueries({ queryKey: productMarkKeys.all })]),
  });
}
