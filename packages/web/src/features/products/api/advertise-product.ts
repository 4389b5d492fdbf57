import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useAdvertiseProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ success: boolean; message: string }>('/productAddToAdvertisement', { method: 'POST', query: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
}
