import type { DataResponse, SellerProduct } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/** GET /myProducts?email=: the signed-in seller's listings. */
export const myProductsQuery = (email: string) =>
  queryOptions({
    queryKey: productKeys.mine(email),
    queryFn: ({ signal }) =>
      api<DataResponse<SellerProduct[]>>('/myProducts', { query: { email }, signal }).then((r) => r.data),
    meta: { private: true },
  });
