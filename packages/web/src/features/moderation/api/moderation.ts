import type {
  AppealAnswerBody,
  AuditPage,
  CreateReportBody,
  DataResponse,
  MessageResponse,
  ModerationActionBody,
  ReportContext,
  ReportedTarget,
  ReportQueueStatus,
} from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys, productKeys } from '../../../lib/query-keys.ts';

/** POST /reports: a signed-in person reports a listing or an account. */
export function useFileReport() {
  return useMutation({
    mutationFn: (body: CreateReportBody) => api<MessageResponse>('/reports', { method: 'POST', json: body }),
  });
}

/** GET /admin/reports: the moderation queue, waiting or handled reports. */
export const reportQueueQuery = (status: ReportQueueStatus) =>
  queryOptions({
    queryKey: moderationKeys.reportsWith(status),
    queryFn: ({ signal }) => api<DataResponse<ReportedTarget[]>>('/admin/reports', { signal, query: { status } }).then((r) => r.data),
    meta: { private: true },
  });

/**
 * GET /admin/reports/{id}/context: the thread around a reported message. Each read is written to
 * the audit log, so it is asked for only when the admin opens it, and not again while shown.
 */
export const reportContextQuery = (reportId: string) =>
  queryOptions({
    queryKey: moderationKeys.context(reportId),
    queryFn: ({ signal }) => api<DataResponse<ReportContext>>(`/admin/reports/${encodeURIComponent(reportId)}/context`, { signal }).then((r) => r.data),
    staleTime: Infinity,
    meta: { private: true },
  });

type Answer = MessageResponse;

/** An admin's act on the queue: afterwards the queue, the audit log and the product lists are stale. */
function useAdminAct<Variables>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: moderationKeys.reports }),
        queryClient.invalidateQueries({ queryKey: moderationKeys.contexts }),
        queryClient.invalidateQueries({ queryKey: moderationKeys.audit }),
        queryClient.invalidateQueries({ queryKey: productKeys.all }),
      ]),
  });
}

/** POST /admin/reports/{id}/actions: an admin acts on a report. */
export const useModerate = () =>
  useAdminAct(({ reportId, ...body }: ModerationActionBody & { reportId: string }) =>
    api<Answer>(`/admin/reports/${encodeURIComponent(reportId)}/actions`, { method: 'POST', json: body }),
  );

/** POST /admin/appeals/{id}/answer: restore the listing, or keep it hidden. */
export const useAnswerAppeal = () =>
  useAdminAct(({ appealId, ...body }: AppealAnswerBody & { appealId: string }) =>
    api<Answer>(`/admin/appeals/${encodeURIComponent(appealId)}/answer`, { method: 'POST', json: body }),
  );

/** POST /admin/users/{id}/lift-suspension. */
export const useLiftSuspension = () =>
  useAdminAct(({ userId, reason }: { userId: string; reason: string }) =>
    api<Answer>(`/admin/users/${encodeURIComponent(userId)}/lift-suspension`, { method: 'POST', json: { reason } }),
  );

/** GET /admin/audit, one keyset page. */
export const auditQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: moderationKeys.auditPage(cursor),
    queryFn: ({ signal }) =>
      api<AuditPage>('/admin/audit', {
        signal,
        ...(cursor ? { query: { cursor } } : {}),
      }),
    meta: { private: true },
  });
