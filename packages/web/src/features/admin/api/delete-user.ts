import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { DeleteResponse } from '@furniture/contract';
import { userKeys } from '../../../lib/query-keys.ts';

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<DeleteResponse>('/deleteUser', { method: 'DELETE', query: { email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
