import type { DataResponse, ManagedUser } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

export type ListedRole = 'buyer' | 'seller';

const endpoints: Record<ListedRole, string> = { buyer: '/allBuyer', seller: '/allSeller' };

/** GET /allBuyer and GET /allSeller: the accounts an admin manages. */
export const usersQuery = (role: ListedRole) =>
  queryOptions({
    queryKey: userKeys.withRole(role),
    queryFn: ({ signal }) => api<DataResponse<ManagedUser[]>>(endpoints[role], { signal }).then((r) => r.data),
    meta: { private: true },
  });
