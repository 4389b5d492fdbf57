import type { DataResponse, PriceGuide, PriceGuideQuery } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { priceGuideKeys } from '../../../lib/query-keys.ts';

/** GET /api/price-guide: a fair resale range for what the seller is listing. */
export const priceGuideQuery = (query: PriceGuideQuery | null) =>
  queryOptions({
    queryKey: priceGuideKeys.of(query),
    enabled: query !== null,
    staleTime: 5 * 60 * 1000,
    queryFn: ({ signal }) =>
      api<DataResponse<PriceGuide>>('/price-guide', {
        signal,
        query: query ? { ...query } : {},
      }).then((r) => r.data),
  });
