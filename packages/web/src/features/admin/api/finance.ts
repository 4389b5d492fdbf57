import type { DataResponse, FinanceOverview, MessageResponse } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { financeKeys } from '../../../lib/query-keys.ts';

/** GET /admin/finance: the marketplace's money and the problems waiting for an admin. */
export const financeQuery = () =>
  queryOptions({
    queryKey: financeKeys.all,
    queryFn: ({ signal }) => api<DataResponse<FinanceOverview>>('/admin/finance', { signal }).then((r) => r.data),
    meta: { private: true },
  });

export type ProblemDecision = 'release' | 'refund';

/** POST /admin/problems/{id}/release or /refund: an admin's decision on a reported problem. */
export function useDecideProblem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ProblemDecision }) =>
      api<MessageResponse>(`/admin/problems/${encodeURIComponent(id)}/${decision}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: financeKeys.all }),
  });
}
