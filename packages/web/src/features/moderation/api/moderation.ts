import type { AuditEntry, CreateReportBody, ModerationActionBody, ReportContext, ReportedTarget } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /reports: a signed-in person reports a listing or an account. */
export function useFileReport() {
  return useMutation({
    mutationFn: (body: CreateReportBody) => api<{ success: boolean; message: string }>('/reports', { method: 'POST', json: body }),
  });
}

/** GET /admin/reports: the moderation queue. */
export const reportQueueQuery = () =>
  queryOptions({
    queryKey: ['reports'],
    queryFn: ({ signal }) => api<{ success: boolean; data: ReportedTarget[] }>('/admin/reports', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/**
 * GET /admin/reports/{id}/context: the thread around a reported message. Each read is written to
 * the audit log, so it is asked for only when the admin opens it, and not again while shown.
 */
export const reportContextQuery = (reportId: string) =>
  queryOptions({
    queryKey: ['report-context', reportId],
    queryFn: ({ signal }) => api<{ success: boolean; data: ReportContext }>(`/admin/reports/${encodeURIComponent(reportId)}/context`, { signal }).then((r) => r.data),
    staleTime: Infinity,
    meta: { private: true },
  });

/** POST /admin/reports/{id}/actions: an admin acts on a report. */
export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, ...body }: ModerationActionBody & { reportId: string }) =>
      api<{ success: boolean; message: string }>(`/admin/reports/${encodeURIComponent(reportId)}/actions`, { method: 'POST', json: body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['reports'] }),
        queryClient.invalidateQueries({ queryKey: ['report-context'] }),
        queryClient.invalidateQueries({ queryKey: ['audit'] }),
        queryClient.invalidateQueries({ queryKey: ['products'] }),
      ]),
  });
}

/** GET /admin/audit, one keyset page. */
export const auditQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: ['audit', cursor],
    queryFn: ({ signal }) =>
      api<{ success: boolean; data: AuditEntry[]; nextCursor: string | null }>('/admin/audit', {
        signal,
        ...(cursor ? { query: { cursor } } : {}),
      }),
    meta: { private: true },
  });
