import type { CreatedResponse, DataResponse, Earnings, Payout, PayoutAccount, PayoutAccountLink } from '@furniture/contract';
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

/** GET /me/payout-account: where the seller's payouts go, and whether they can be made. */
export const payoutAccountQuery = () =>
  queryOptions({
    queryKey: earningKeys.payoutAccount,
    queryFn: ({ signal }) => api<DataResponse<PayoutAccount>>('/me/payout-account', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/** POST /me/payout-account, then on to Stripe's onboarding, which sends the seller back to Earnings. */
export function useSetUpPayouts() {
  return useMutation({
    mutationFn: () => api<DataResponse<PayoutAccountLink>>('/me/payout-account', { method: 'POST' }).then((r) => r.data),
    onSuccess: (link) => window.location.assign(link.onboardingUrl),
  });
}

/** GET /me/earnings/statement: the month's statement, saved as a CSV file. */
export async function downloadStatement(month: string) {
  saveFile(await apiText('/me/earnings/statement', { query: { month } }), 'text/csv', `statement-${month}.csv`);
}
