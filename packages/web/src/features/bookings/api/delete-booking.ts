import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useDeleteBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ success: boolean; deletedCount?: number; message: string }>('/bookingDelete', { method: 'DELETE', query: { id } }),
    // Product cards show what the buyer has wished for and booked.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['bookings'] }), queryClient.invalidateQueries({ queryKey: ['product-marks'] })]),
  });
}
