import type { PublicUser } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reloadUser } from '../../../lib/auth-store.ts';

/** POST /api/me/selling: the account sells too; the menus and guards follow the reloaded account. */
export function useStartSelling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ success: boolean; message: string; data: PublicUser }>('/me/selling', { method: 'POST' }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['user-record'] }), reloadUser()]),
  });
}
