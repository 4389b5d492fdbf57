import type { DataResponse, ProductDetails } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/** GET /api/products/{id}: one product with its seller and similar pieces. */
export const productQuery = (id: string) =>
  queryOptions({
    queryKey: productKeys.one(id),
    queryFn: ({ signal }) => api<DataResponse<ProductDetails>>(`/products/${encodeURIComponent(id)}`, { signal }).then((r) => r.data),
  });

/** The route loader of /product/{id}: an unknown id fails with 404, which the error page shows. */
export function productLoader({ params }: LoaderFunctionArgs) {
  return queryClient.ensureQueryData(productQuery(params.id ?? ''));
}
