import type { ClientConfig, DataResponse } from '@furniture/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { appConfigKeys } from './query-keys.ts';

export type AppConfig = ClientConfig;

/** What the server has set up: Google sign-in, which card payment provider to use, the social profiles. */
export const appConfigQuery = () =>
  queryOptions({
    queryKey: appConfigKeys.all,
    queryFn: ({ signal }) => api<DataResponse<AppConfig>>('/config', { signal }).then((r) => r.data),
    staleTime: Infinity,
  });

export function useAppConfig() {
  return useQuery(appConfigQuery());
}
