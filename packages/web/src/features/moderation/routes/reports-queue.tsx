import {
  appealAnswers,
  type ModeratedMessage,
  type ModerationAction,
  moderationActions,
  type Report,
  type ReportedMessage,
  type ReportedTarget,
  type ReportQueueStatus,
  reportQueueStatuses,
  trustTexts,
  trustWebTexts,
  uiTexts,
} from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SelectField } from '../../../components/form/select-field.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { reportContextQuery, reportQueueQuery, useAnswerAppeal, useLiftSuspension, useModerate } from '../api/moderation.ts';

/**
 * The actions that make sense for a target: open reports can be dismissed; a listing can be hidden
 * or removed, or restored once it is (unless its seller's appeal waits: the answer restores it); a
 * message can be removed; an account not yet suspended can be (a suspended one is lifted by its own
 * button).
 */
function actionsFor(target: ReportedTarget, status: ReportQueueStatus): readonly ModerationAction[] {
  const fitting = new Set<ModerationAction>();
  if (status === 'open' && target.reports.length > 0) fitting.add('dismiss');
  if (target.targetType === 'product' && !target.moderation) {
    fitting.add('hide');
    fitting.add('remove');
  }
  if (target.targetType === 'product' && target.moderation) {
    if (target.appeal?.status !== 'pending') fitting.add('restore');
    if (target.moderation === 'hidden') fitting.add('remove');
  }
  if (target.targetType === 'message' && !target.message?.removedAt) fitting.add('remove');
  if (!target.suspended) fitting.add('suspend');
  return moderationActions.filter((action) => fitting.has(action));
}

function ReportLine({ report }: { report: Report }) {
  return (
    <li>
      {trustTexts.reportReasons[report.reason]}
      {report.note ? `: ${report.note}` : ''}{' '}
      <span className="text-xs opacity-80">
        ({trustWebTexts.reportStatusLabels[report.status]}, <time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time>)
      </span>
    </li>
  );
}

/** The target's other reports and what admins did about it before, newest first. */
function TargetHistory({ target }: { target: ReportedTarget }) {
  const { reports, actions } = target.history;
  return (
    <details className="mt-2">
      <summary className="cursor-pointer font-medium">{trustWebTexts.historyTitle}</summary>
      {reports.length === 0 && actions.length === 0 && <p className="text-sm">{trustWebTexts.noHistory}</p>}
      {reports.length > 0 && (
        <>
          <h3 className="mt-2 text-sm font-semibold">{trustWebTexts.pastReportsTitle}</h3>
          <ul className="list-disc pl-5 text-sm">
            {reports.map((report) => (
              <ReportLine key={report._id} report={report} />
            ))}
          </ul>
        </>
      )}
      {actions.length > 0 && (
        <>
          <h3 className="mt-2 text-sm font-semibold">{trustWebTexts.pastActionsTitle}</h3>
          <ul className="list-disc pl-5 text-sm">
            {actions.map((entry) => (
              <li key={`${entry.createdAt}-${entry.action}`} className="break-words">
                {trustWebTexts.historyAction(entry.action, entry.actorEmail, formatDateTime(entry.createdAt))}
                {entry.reason ? ` — ${entry.reason}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
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
  if (isPending) return <span className="loading loading-spinner" aria-label={uiTexts.loading} />;
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

function ReportedTargetCard({ target, status }: { target: ReportedTarget; status: ReportQueueStatus }) {
  const [reason, setReason] = useState('');
  const moderate = useModerate();
  const answerAppeal = useAnswerAppeal();
  const liftSuspension = useLiftSuspension();
  const reasonId = useId();
  // Any report of the target names it for an action: the action covers the whole target.
  const reportId = (target.reports[0] ?? target.history.reports[0])?._id;
  const pendingAppeal = target.appeal?.status === 'pending' ? target.appeal : null;
  const busy = moderate.isPending || answerAppeal.isPending || liftSuspension.isPending;

  async function run(work: () => Promise<{ message: string }>) {
    try {
      notify.success((await work()).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <li className="rounded-box border border-base-300 p-4">
      <h2 className="text-lg font-semibold break-words">
        {target.targetType === 'product' ? (
          <Link to={paths.product.getHref(target.targetId)}>{target.title}</Link>
        ) : target.message ? (
          <Link to={paths.product.getHref(target.message.productId)}>{trustWebTexts.reportedMessageHeading(target.title)}</Link>
        ) : (
          target.title
        )}{' '}
        {target.reportCount > 0 && <span className="badge">{trustWebTexts.reportCount(target.reportCount)}</span>}{' '}
        {pendingAppeal && <span className="badge badge-warning">{trustWebTexts.appealedBadge}</span>}{' '}
        {target.moderation && (
          <span className="badge badge-error h-auto">{target.moderation === 'hidden' ? trustWebTexts.hiddenBadge : trustWebTexts.removedBadge}</span>
        )}{' '}
        {target.suspended && <span className="badge badge-error">{trustWebTexts.suspendedBadge}</span>}
      </h2>
      <p className="text-sm break-words">
        {target.targetType === 'message' ? trustWebTexts.messageAuthor : trustWebTexts.owner}: {target.ownerEmail}
      </p>
      {target.message && reportId && <ReportedMessageDetails message={target.message} reportId={reportId} />}
      <ul className="my-2 list-disc pl-5">
        {target.reports.map((report) => (
          <ReportLine key={report._id} report={report} />
        ))}
      </ul>
      {target.appeal && (
        <div className="my-2 rounded-box bg-base-200 p-3 text-sm" data-testid="appeal">
          <p className="break-words">{trustWebTexts.appealFromSeller(target.appeal.text)}</p>
          <p>
            {trustWebTexts.appealStates[target.appeal.status]}
            {target.appeal.answer ? ` — ${trustWebTexts.appealAnswer(target.appeal.answer)}` : ''}
          </p>
        </div>
      )}
      <label htmlFor={reasonId} className="label">
        {target.targetType === 'message' ? trustWebTexts.messageActionReason : trustWebTexts.actionReason}
      </label>
      <input id={reasonId} className="input w-full" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <div className="mt-2 flex flex-wrap gap-2">
        {pendingAppeal &&
          appealAnswers.map((answer) => (
            <button
              key={answer}
              type="button"
              className="btn btn-sm btn-primary"
              disabled={busy}
              onClick={() => void run(() => answerAppeal.mutateAsync({ appealId: pendingAppeal._id, answer, reason }))}
            >
              {trustWebTexts.appealAnswerLabels[answer]}
            </button>
          ))}
        {reportId &&
          actionsFor(target, status).map((action) => (
            <button key={action} type="button" className="btn btn-sm" disabled={busy} onClick={() => void run(() => moderate.mutateAsync({ reportId, action, reason }))}>
              {labelOf(target, action)}
            </button>
          ))}
        {target.suspended && target.ownerId && (
          <button
            type="button"
            className="btn btn-sm"
            disabled={busy}
            onClick={() => void run(() => liftSuspension.mutateAsync({ userId: target.ownerId!, reason }))}
          >
            {trustWebTexts.liftSuspension}
          </button>
        )}
      </div>
      <TargetHistory target={target} />
    </li>
  );
}

const isQueueStatus = (value: string | null): value is ReportQueueStatus => reportQueueStatuses.some((status) => status === value);

/**
 * /dashboard/reports: appealed listings and open reports grouped by target, most-reported first, or
 * the reports already handled; each with its history and what an admin does about it.
 */
export function ReportsQueueRoute() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('status');
  const status: ReportQueueStatus = isQueueStatus(requested) ? requested : 'open';
  const { data: targets, isPending } = useQuery(reportQueueQuery(status));
  return (
    <section aria-labelledby="reports-title" className="flex flex-col gap-4">
      <h1 id="reports-title" className="text-2xl font-bold">
        {trustWebTexts.queueTitle}
      </h1>
      <div className="max-w-xs">
        <SelectField
          label={trustWebTexts.queueStatusLabel}
          value={status}
          onChange={(event) => setParams(event.target.value === 'open' ? {} : { status: event.target.value })}
        >
          {reportQueueStatuses.map((value) => (
            <option key={value} value={value}>
              {trustWebTexts.queueStatuses[value]}
            </option>
          ))}
        </SelectField>
      </div>
      {isPending && <span className="loading loading-spinner" aria-label={uiTexts.loading} />}
      {targets?.length === 0 && <p>{status === 'open' ? trustWebTexts.queueEmpty : trustWebTexts.closedQueueEmpty}</p>}
      <ul className="flex flex-col gap-4">
        {targets?.map((target) => (
          <ReportedTargetCard key={`${target.targetType}:${target.targetId}`} target={target} status={status} />
        ))}
      </ul>
    </section>
  );
}
