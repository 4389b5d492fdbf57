import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@furniture/contract';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

export function useRemoveAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api<MessageResponse>('/removeAdmin', { method: 'PATCH', query: { email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
