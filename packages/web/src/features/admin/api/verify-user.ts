import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { productKeys, userKeys } from '../../../lib/query-keys.ts';

export function useVerifyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<MessageResponse>('/verifyUser', { method: 'PATCH', query: { email } }),
    // The seller's tick changes on every product card, so those lists are stale too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: userKeys.all }), queryClient.invalidateQueries({ queryKey: productKeys.all })]),
  });
}
