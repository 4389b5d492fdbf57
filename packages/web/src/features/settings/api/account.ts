import type { AccountSession, OwnAccount } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reloadUser } from '../../../lib/auth-store.ts';

type Message = { success: boolean; message: string };

export const accountSessionsQuery = () =>
  queryOptions({
    queryKey: ['me', 'sessions'],
    queryFn: ({ signal }) => api<{ success: boolean; data: AccountSession[] }>('/me/sessions', { signal }).then((r) => r.data),
    meta: { private: true },
  });

export type ProfileChange = Partial<Pick<OwnAccount, 'name' | 'image' | 'phone' | 'location'>>;

export function useChangeProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => api<Message & { data: OwnAccount }>('/me', { method: 'PATCH', json: change }),
    // The name and photo show in the navbar and the dashboard's header too.
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['me'] }), queryClient.invalidateQueries({ queryKey: ['user-record'] }), reloadUser()]);
    },
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api<Message>('/me/password', { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] }),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) => api<Message>(id ? `/me/sessions/${encodeURIComponent(id)}` : '/me/sessions', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] }),
  });
}
