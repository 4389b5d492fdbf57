import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

export interface AppConfig {
  googleSignIn: boolean;
  paymentProvider: 'simulated' | 'stripe';
  stripePublishableKey: string | null;
}

/** What the server has set up: Google sign-in, and which card payment provider to use. */
export const appConfigQuery = () =>
  queryOptions({
    queryKey: ['app-config'],
    queryFn: ({ signal }) => api<{ success: boolean; data: AppConfig }>('/config', { signal }).then((r) => r.data),
    staleTime: Infinity,
  });

export function useAppConfig() {
  return useQuery(appConfigQuery());
}
