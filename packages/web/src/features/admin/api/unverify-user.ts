import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@furniture/contract';
import { api } from '../../../lib/api-client.ts';
import { productKeys, userKeys } from '../../../lib/query-keys.ts';

export function useUnverifyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api<MessageResponse>('/unverifyUser', { method: 'PATCH', query: { email } }),
    // The seller's tick goes from every product card too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: userKeys.all }), queryClient.invalidateQueries({ queryKey: productKeys.all })]),
  });
}
