import type { MessageResponse, ReportProblemBody } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { bookingKeys } from '../../../lib/query-keys.ts';

/** POST /bookings/{id}/problem: the buyer's "Something is wrong" on a paid sale. */
export function useReportProblem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, report }: { id: string; report: ReportProblemBody }) =>
      api<MessageResponse>(`/bookings/${encodeURIComponent(id)}/problem`, { method: 'POST', json: report }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}
