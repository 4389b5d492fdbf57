import { trustWebTexts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditQuery } from '../api/moderation.ts';

/** /dashboard/audit: every admin act, newest first, a page at a time. */
export function AuditLogRoute() {
  const [cursor, setCursor] = useState<string | null>(null);
  const { data: page, isPending } = useQuery(auditQuery(cursor));
  const columns = trustWebTexts.auditColumns;
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-4">
      <h1 id="audit-title" className="text-2xl font-bold">
        {trustWebTexts.auditTitle}
      </h1>
      {isPending && <span className="loading loading-spinner" aria-label={uiTexts.loading} />}
      {page?.data.length === 0 && <p>{trustWebTexts.auditEmpty}</p>}
      {page && page.data.length > 0 && (
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{columns.when}</th>
                <th scope="col">{columns.who}</th>
                <th scope="col">{columns.action}</th>
                <th scope="col">{columns.target}</th>
                <th scope="col">{columns.reason}</th>
                <th scope="col">{columns.address}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((entry) => (
                <tr key={entry._id}>
                  <td>
                    <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString('en-US')}</time>
                  </td>
                  <td>{entry.actorEmail}</td>
                  <td>{entry.action}</td>
                  <td>{entry.targetLabel ?? `${entry.targetType} ${entry.targetId}`}</td>
                  <td>{entry.reason}</td>
                  <td>{entry.address}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page?.nextCursor && (
        <button type="button" className="btn self-start" onClick={() => setCursor(page.nextCursor)}>
          {trustWebTexts.loadOlder}
        </button>
      )}
    </section>
  );
}
