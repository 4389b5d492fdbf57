import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<{ success: boolean; deletedCount?: number; message: string }>('/deleteUser', { method: 'DELETE', query: { email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
