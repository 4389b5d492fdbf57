import type { AccountPasskey, AccountSession, CreatedResponse, DataResponse, MessageResponse, OwnAccount } from '@furniture/contract';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reloadUser } from '../../../lib/auth-store.ts';
import { makePasskey } from '../../../lib/passkeys.ts';
import { accountKeys, userKeys } from '../../../lib/query-keys.ts';

export const accountSessionsQuery = () =>
  queryOptions({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) => api<DataResponse<AccountSession[]>>('/me/sessions', { signal }).then((r) => r.data),
    meta: { private: true },
  });

export type ProfileChange = Partial<Pick<OwnAccount, 'name' | 'image' | 'phone' | 'location'>>;

export function useChangeProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => api<CreatedResponse<OwnAccount>>('/me', { method: 'PATCH', json: change }),
    // The name and photo show in the navbar and the dashboard's header too.
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: accountKeys.all }), queryClient.invalidateQueries({ queryKey: userKeys.records }), reloadUser()]);
    },
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api<MessageResponse>('/me/password', { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) => api<MessageResponse>(id ? `/me/sessions/${encodeURIComponent(id)}` : '/me/sessions', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export const passkeysQuery = () =>
  queryOptions({
    queryKey: accountKeys.passkeys,
    queryFn: ({ signal }) => api<DataResponse<AccountPasskey[]>>('/me/passkeys', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/** Has the device make a passkey for the account, then keeps it on the server. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await api<DataResponse<PublicKeyCredentialCreationOptionsJSON>>('/me/passkeys/options', { method: 'POST' });
      const response = await makePasskey(data);
      return api<CreatedResponse<AccountPasskey>>('/me/passkeys', { method: 'POST', json: { response } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageResponse>(`/me/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
  });
}

/** Asks for a link at the new address; the e-mail changes when it is opened. */
export function useAskEmailChange() {
  return useMutation({
    mutationFn: (body: { email: string; currentPassword?: string }) => api<MessageResponse>('/me/email', { method: 'POST', json: body }),
  });
}
