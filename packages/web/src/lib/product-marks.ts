import type { ProductMarks } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { productMarkKeys } from './query-keys.ts';

/** GET /me/product-marks: what the signed-in account has wished for, booked and listed, so cards show it. */
export const productMarksQuery = () =>
  queryOptions({
    queryKey: productMarkKeys.all,
    queryFn: ({ signal }) => api<{ data: ProductMarks }>('/me/product-marks', { signal }).then((response) => response.data),
    select: (marks) => ({ wished: new Set(marks.wishedProductIds), booked: new Set(marks.bookedProductIds), own: new Set(marks.ownProductIds) }),
  });
