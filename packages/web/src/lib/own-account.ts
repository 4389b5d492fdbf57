import type { DataResponse, OwnAccount } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { accountKeys } from './query-keys.ts';

/** The signed-in account's own details (GET /me): settings show them, booking forms start from its phone and town. */
export const ownAccountQuery = () =>
  queryOptions({
    queryKey: accountKeys.all,
    queryFn: ({ signal }) => api<DataResponse<OwnAccount>>('/me', { signal }).then((r) => r.data),
    meta: { private: true },
  });
