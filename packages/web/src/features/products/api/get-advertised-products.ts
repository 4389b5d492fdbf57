import type { DataResponse, Product } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/** GET /advertisement: the products sellers advertise on Home. */
export const advertisedProductsQuery = () =>
  queryOptions({
    queryKey: productKeys.advertised(),
    queryFn: ({ signal }) =>
      api<DataResponse<Product[]>>('/advertisement', { signal }).then((r) => r.data),
  });
