import type { DataResponse, Wish } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { wishKeys } from '../../../lib/query-keys.ts';

/** GET /wishes?email=: the signed-in buyer's wish list. */
export const wishesQuery = (email: string) =>
  queryOptions({
    queryKey: wishKeys.of(email),
    queryFn: ({ signal }) => api<DataResponse<Wish[]>>('/wishes', { query: { email }, signal }).then((r) => r.data),
    meta: { private: true },
  });
