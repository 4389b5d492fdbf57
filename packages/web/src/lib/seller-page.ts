import type { DataResponse, SellerPage } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { sellerKeys } from './query-keys.ts';

/** GET /api/sellers/{id}: a seller's public profile, with their reviews and listings. */
export const sellerPageQuery = (id: string) =>
  queryOptions({
    queryKey: sellerKeys.page(id),
    queryFn: ({ signal }) => api<DataResponse<SellerPage>>(`/sellers/${encodeURIComponent(id)}`, { signal }).then((r) => r.data),
  });
