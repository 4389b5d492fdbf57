import {
  moderationActions,
  trustTexts,
  trustWebTexts,
  type ModeratedMessage,
  type ModerationAction,
  type ReportedMessage,
  type ReportedTarget,
} from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { reportContextQuery, reportQueueQuery, useModerate } from '../api/moderation.ts';

/**
 * The actions that make sense for a target: a listing can be hidden or removed, or restored once it
 * is; a message can be removed; an account can only be suspended. Dismiss and suspend fit every target.
 */
function actionsFor(target: ReportedTarget): readonly ModerationAction[] {
  const listingActions: readonly ModerationAction[] = target.moderation ? ['restore'] : ['hide', 'remove'];
  const ownActions = { product: listingActions, message: ['remove'], user: [] } satisfies Record<ReportedTarget['targetType'], readonly ModerationAction[]>;
  const fitting = new Set<ModerationAction>(['dismiss', 'suspend', ...ownActions[target.targetType]]);
  return moderationActions.filter((action) => fitting.has(action));
}

const labelOf = (target: ReportedTarget, action: ModerationAction) =>
  (target.targetType === 'message' ? trustWebTexts.messageActionLabels[action as keyof typeof trustWebTexts.messageActionLabels] : undefined) ??
  trustWebTexts.actionLabels[action];

/** One message as an admin reads it: who wrote it, when, and what, marked when moderation removed it. */
function ModeratedMessageText({ message, reported = false }: { message: ModeratedMessage; reported?: boolean }) {
  return (
    <>
      <p className="text-sm">
        <span className="font-semibold">{message.senderName}</span> · <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        {reported && <span className="badge badge-warning badge-sm ml-2">{trustWebTexts.reportedMarker}</span>}
        {message.removedAt && <span className="badge badge-sm ml-2">{trustWebTexts.messageRemovedBadge}</span>}
      </p>
      {/* Plain text, as on the Messages screen. */}
      <p className="whitespace-pre-wrap break-words">{message.text}</p>
    </>
  );
}

/** The conversation around a reported message, fetched (and audited) only once the admin asks for it. */
function ThreadExcerpt({ reportId }: { reportId: string }) {
  const { data: context, isPending } = useQuery(reportContextQuery(reportId));
  if (isPending) return <span className="loading loading-spinner" aria-label="Loading" />;
  if (!context) return null;
  return (
    <section aria-label={trustWebTexts.threadTitle(context.buyerName, context.sellerName)} className="rounded-box bg-base-200 p-3">
      <h3 className="font-semibold">{trustWebTexts.threadTitle(context.buyerName, context.sellerName)}</h3>
      <ol className="mt-2 flex flex-col gap-2">
        {context.messages.map((message) => (
          <li key={message._id} className={message._id === context.reportedMessageId ? 'border-l-4 border-warning pl-2' : 'pl-3'}>
            <ModeratedMessageText message={message} reported={message._id === context.reportedMessageId} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What the queue shows of a reported message: the message itself, and its thread on request. */
function ReportedMessageDetails({ message, reportId }: { message: ReportedMessage; reportId: string }) {
  const [showThread, setShowThread] = useState(false);
  return (
    <div className="my-2 flex flex-col gap-2">
      <blockquote className="rounded-box border-l-4 border-warning bg-base-200 p-3">
        <ModeratedMessageText message={message} />
      </blockquote>
      {showThread ? (
        <ThreadExcerpt reportId={reportId} />
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <button type="button" className="btn btn-sm btn-outline" onClick={() => setShowThread(true)}>
            {trustWebTexts.showThread}
          </button>
          <span>{trustWebTexts.threadReadIsAudited}</span>
        </p>
      )}
    </div>
  );
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
        {target.targetType === 'product' ? (
          <Link to={paths.product.getHref(target.targetId)}>{target.title}</Link>
        ) : target.message ? (
          <Link to={paths.product.getHref(target.message.productId)}>{trustWebTexts.reportedMessageHeading(target.title)}</Link>
        ) : (
          target.title
        )}{' '}
        <span className="badge">{trustWebTexts.reportCount(target.reportCount)}</span>
      </h2>
      <p className="text-sm">
        {target.targetType === 'message' ? trustWebTexts.messageAuthor : trustWebTexts.owner}: {target.ownerEmail}
      </p>
      {target.message && <ReportedMessageDetails message={target.message} reportId={reportId} />}
      <ul className="my-2 list-disc pl-5">
        {target.reports.map((report) => (
          <li key={report.id}>
            {trustTexts.reportReasons[report.reason]}
            {report.note ? `: ${report.note}` : ''}
          </li>
        ))}
      </ul>
      <label htmlFor={reasonId} className="label">
        {target.targetType === 'message' ? trustWebTexts.messageActionReason : trustWebTexts.actionReason}
      </label>
      <input id={reasonId} className="input w-full" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <div className="mt-2 flex flex-wrap gap-2">
        {actionsFor(target).map((action) => (
          <button key={action} type="button" className="btn btn-sm" disabled={moderate.isPending} onClick={() => void act(action)}>
            {labelOf(target, action)}
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
