import { trustWebTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
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
      {/* A table on wider screens; below md each entry is a card, so a phone never scrolls sideways. */}
      <DataTable
        columns={[
          { header: columns.when, cell: (entry) => <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> },
          { header: columns.who, cell: (entry) => entry.actorEmail },
          { header: columns.action, cell: (entry) => entry.action },
          { header: columns.target, cell: (entry) => entry.targetLabel ?? `${entry.targetType} ${entry.targetId}` },
          { header: columns.reason, cell: (entry) => entry.reason },
          { header: columns.address, cell: (entry) => entry.address },
        ]}
        rows={page?.data}
        isPending={isPending}
        empty={{ text: trustWebTexts.auditEmpty }}
      />
      {page?.nextCursor && (
        <button type="button" className="btn self-start" onClick={() => setCursor(page.nextCursor)}>
          {trustWebTexts.loadOlder}
        </button>
      )}
    </section>
  );
}
