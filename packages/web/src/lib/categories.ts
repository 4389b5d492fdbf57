import type { Category } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { categoryKeys } from './query-keys.ts';

/** GET /allCategories: the list the shell's loader fetches; Home, Categories and Add Product read it. */
export const categoriesQuery = () =>
  queryOptions({
    queryKey: categoryKeys.all,
    queryFn: ({ signal }) =>
      api<Category[] | { data: Category[] }>('/allCategories', { signal }).then((r) => (Array.isArray(r) ? r : r.data)),
  });
