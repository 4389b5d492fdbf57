import type { DataResponse, ManagedUser } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

export type ListedRole = 'buyer' | 'seller' | 'admin';

const endpoints: Record<ListedRole, string> = { buyer: '/allBuyer', seller: '/allSeller', admin: '/allAdmin' };

/** Accounts on one page of an admin's list. */
export const USERS_PAGE_SIZE = 20;

/**
 * GET /allBuyer, /allSeller and /allAdmin: the accounts an admin manages; given `listPage`, one
 * page of USERS_PAGE_SIZE of those whose name or e-mail contains its `search`.
 */
export const usersQuery = (role: ListedRole, listPage?: { search: string; page: number }) =>
  queryOptions({
    queryKey: listPage ? [...userKeys.withRole(role), listPage.search, listPage.page] : userKeys.withRole(role),
    queryFn: ({ signal }) =>
      api<DataResponse<ManagedUser[]>>(endpoints[role], {
        signal,
        query: listPage && { q: listPage.search || undefined, page: listPage.page, limit: USERS_PAGE_SIZE },
      }).then((r) => r.data),
    meta: { private: true },
  });
