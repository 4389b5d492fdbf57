import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useMakeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<{ success: boolean; message: string }>('/makeNewAdmin', { method: 'PATCH', query: { email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
