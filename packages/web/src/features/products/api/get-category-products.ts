import type { CategoryProducts } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/** GET /category/{id} with the bearer token: the products of one category. */
export const categoryProductsQuery = (categoryId: string) =>
  queryOptions({
    queryKey: productKeys.category(categoryId),
    queryFn: ({ signal }) =>
      api<CategoryProducts>(`/category/${encodeURIComponent(categoryId)}`, { signal }).then(
        (r) => r.products,
      ),
  });

/** The route loader of /category/{id} (section 2). */
export function categoryProductsLoader({ params }: LoaderFunctionArgs) {
  return queryClient.ensureQueryData(categoryProductsQuery(params.id ?? ''));
}
