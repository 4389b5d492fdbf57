import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useDeleteWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ success: boolean; deletedCount?: number; message: string }>('/wishDelete', { method: 'DELETE', query: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wishes'] }),
  });
}
