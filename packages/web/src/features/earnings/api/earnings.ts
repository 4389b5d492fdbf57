import type { CreatedResponse, DataResponse, Earnings, Payout } from '@furniture/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiText } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { earningKeys } from '../../../lib/query-keys.ts';

/** GET /me/earnings: the balances, the held sales, the weekly series and a page of entries. */
export const earningsQuery = () =>
  infiniteQueryOptions({
    queryKey: earningKeys.all,
    queryFn: ({ signal, pageParam }) =>
      api<DataResponse<Earnings>>('/me/earnings', { query: pageParam ? { cursor: pageParam } : {}, signal }).then((r) => r.data),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    meta: { private: true },
  });

/** GET /me/payouts: the seller's payouts, newest first. */
export const payoutsQuery = () =>
  queryOptions({
    queryKey: earningKeys.payouts,
    queryFn: ({ signal }) => api<DataResponse<Payout[]>>('/me/payouts', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/** POST /me/payouts: the whole available balance, paid out now. */
export function usePayOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<CreatedResponse<Payout>>('/me/payouts', { method: 'POST' }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: earningKeys.all });
      await queryClient.invalidateQueries({ queryKey: earningKeys.payouts });
    },
  });
}

/** GET /me/earnings/statement: the month's statement, saved as a CSV file. */
export async function downloadStatement(month: string) {
  saveFile(await apiText('/me/earnings/statement', { query: { month } }), 'text/csv', `statement-${month}.csv`);
}
