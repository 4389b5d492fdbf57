import { sql, type SQL } from 'drizzle-orm';
import type { NotificationKind } from '@furniture/contract';
import { insertColumns, type Executor } from '../db/client.ts';
import { notificationKind, notifications } from '../db/schema/index.ts';
import { announceAfterCommit } from '../db/announcements.ts';
import { addresseeArray, addresseesOf, liveEventsAnnouncement, storeLiveEvents, type LiveEventContent } from '../events/live-events.ts';
import { addJobCall, defineTask, newJobsAnnouncement } from '../jobs/job-queue.ts';

/**
 * Tells people what happened (decision 22): a notification in their list, a live event to their open
 * tabs, and a job that e-mails it as their settings say. Call in the transaction of the change:
 * all of it happens exactly when the change commits.
 */

export interface NotificationInput {
  to: string | readonly string[];
  kind: NotificationKind;
  text: string;
  link: string;
  image?: string;
  /** False for a notification whose e-mail is sent otherwise (a receipt): it is neither e-mailed nor in the digest. */
  byEmail?: false;
}

export const emailNotificationTask = defineTask<{ notificationId: string }>('notifications.email');

/** Dollars as people read them. */
export const usd = (amount: number | string) => `$${Number(amount).toFixed(2)}`;

/** What a notification says; its text and image may be SQL, values the statement that tells reads itself. */
export interface Notice {
  kind: NotificationKind;
  text: string | SQL;
  link: string;
  image: string | SQL | null;
  byEmail?: false;
}

/**
 * A notification as two CTEs of one statement: `notified`, the notifications with their e-mail jobs
 * ({ notificationId } is the task's payload), and `published`, the live events (`notify` runs them
 * alone; a booking, in the statement that makes it). `to` is a text[] of addressees in id order;
 * `alsoPublish`, other live events for them, stored after the notification's, so their locks are
 * taken once. Neither CTE needs to be read: PostgreSQL runs every data-modifying one.
 */
export function notificationStatements(to: SQL, notice: Notice, alsoPublish: readonly LiveEventContent[] = []) {
  const text = typeof notice.text === 'string' ? sql`${notice.text}::text` : notice.text;
  const image = notice.image === null || typeof notice.image === 'string' ? sql`${notice.image}::text` : notice.image;
  const kind = sql`${notice.kind}::${sql.identifier(notificationKind.enumName)}`;
  const emailJob = addJobCall(emailNotificationTask, sql`json_build_object('notificationId', ${notifications.id})`);
  const mailed = notice.byEmail !== false;
  const notified = sql`
    insert into ${notifications} (${insertColumns(notifications.userId, notifications.kind, notifications.text, notifications.link, notifications.image, notifications.emailedAt)})
    select addressee::uuid, ${kind}, ${text}, ${notice.link}::text, ${image}, ${mailed ? sql`null` : sql`now()`} from unnest(${to}) as addressee
    returning ${mailed ? emailJob : notifications.id}`;
  const created = { type: 'notification.created', data: sql`json_build_object('kind', ${kind}, 'text', ${text}, 'link', ${notice.link}::text)` };
  return { notified, published: storeLiveEvents(to, [created, ...alsoPublish]) };
}

/** Wakes the job workers and the addressees' live-event hubs once the notifying transaction commits (at once outside one). */
export async function announceNotification(db: Executor, to: readonly string[]): Promise<void> {
  await announceAfterCommit(db, newJobsAnnouncement, liveEventsAnnouncement(to));
}

export async function notify(tx: Executor, input: NotificationInput, alsoPublish: readonly LiveEventContent[] = []): Promise<void> {
  const to = addresseesOf(input.to);
  if (to.length === 0) return;
  const { notified, published } = notificationStatements(addresseeArray(to), { ...input, image: input.image ?? null }, alsoPublish);
  await tx.execute(sql`with notified as (${notified}), published as (${published}) select`);
  await announceNotification(tx, to);
}

/** Stands for a value only the statement reads in a text composed here: PostgreSQL text cannot hold NUL, so no stored name does. */
const SLOT = '\u0000';

/**
 * A text of `packages/contract` around one value that only the statement telling of it reads (a
 * booking's product name): the text before the value and after it, for the statement to join.
 */
export function textAround(compose: (value: string) => string): { textBefore: string; textAfter: string } {
  const parts = compose(SLOT).split(SLOT);
  if (parts.length !== 2) throw new Error('The text must show the value exactly once');
  return { textBefore: parts[0]!, textAfter: parts[1]! };
}
