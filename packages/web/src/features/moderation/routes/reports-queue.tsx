import { moderationActions, trustTexts, trustWebTexts, type ModerationAction, type ReportedTarget } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { reportQueueQuery, useModerate } from '../api/moderation.ts';

/**
 * The actions that make sense for a target: a listing can be hidden or removed, or restored once it
 * is; an account can only be suspended. Dismiss and suspend fit every target.
 */
function actionsFor(target: ReportedTarget): readonly ModerationAction[] {
  const listingActions: readonly ModerationAction[] = target.moderation ? ['restore'] : ['hide', 'remove'];
  const fitting = new Set<ModerationAction>(['dismiss', 'suspend', ...(target.targetType === 'product' ? listingActions : [])]);
  return moderationActions.filter((action) => fitting.has(action));
}

function ReportedTargetCard({ target }: { target: ReportedTarget }) {
  const [reason, setReason] = useState('');
  const moderate = useModerate();
  const reportId = target.reports[0]!.id;
  const reasonId = `reason-${reportId}`;

  async function act(action: ModerationAction) {
    try {
      const answer = await moderate.mutateAsync({ reportId, action, reason });
      notify.success(answer.message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <li className="rounded-box border border-base-300 p-4">
      <h2 className="text-lg font-semibold">
        {target.targetType === 'product' ? <Link to={paths.product.getHref(target.targetId)}>{target.title}</Link> : target.title}{' '}
        <span className="badge">{trustWebTexts.reportCount(target.reportCount)}</span>
      </h2>
      <p className="text-sm">
        {trustWebTexts.owner}: {target.ownerEmail}
      </p>
      <ul className="my-2 list-disc pl-5">
        {target.reports.map((report) => (
          <li key={report.id}>
            {trustTexts.reportReasons[report.reason]}
            {report.note ? `: ${report.note}` : ''}
          </li>
        ))}
      </ul>
      <label htmlFor={reasonId} className="label">
        {trustWebTexts.actionReason}
      </label>
      <input id={reasonId} className="input w-full" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <div className="mt-2 flex flex-wrap gap-2">
        {actionsFor(target).map((action) => (
          <button key={action} type="button" className="btn btn-sm" disabled={moderate.isPending} onClick={() => void act(action)}>
            {trustWebTexts.actionLabels[action]}
          </button>
        ))}
      </div>
    </li>
  );
}

/** /dashboard/reports: open reports grouped by target, most-reported first, and what an admin does about them. */
export function ReportsQueueRoute() {
  const { data: targets, isPending } = useQuery(reportQueueQuery());
  return (
    <section aria-labelledby="reports-title" className="flex flex-col gap-4">
      <h1 id="reports-title" className="text-2xl font-bold">
        {trustWebTexts.queueTitle}
      </h1>
      {isPending && <span className="loading loading-spinner" aria-label="Loading" />}
      {targets?.length === 0 && <p>{trustWebTexts.queueEmpty}</p>}
      <ul className="flex flex-col gap-4">
        {targets?.map((target) => (
          <ReportedTargetCard key={`${target.targetType}:${target.targetId}`} target={target} />
        ))}
      </ul>
    </section>
  );
}
