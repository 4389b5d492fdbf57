import { searchProductsPath, type SearchResponse } from '@furniture/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/**
 * GET /api/products for the search page's query string, page after page: each page passes the
 * previous page's nextCursor. The query string is the key, so Back finds the pages already loaded.
 */
export const searchProductsQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: productKeys.search(search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => api<SearchResponse>(searchProductsPath(search, pageParam), { signal }),
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
