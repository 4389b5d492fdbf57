import { sql } from 'drizzle-orm';
import type { NotificationKind } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { notifications } from '../db/schema/index.ts';
import { addresseesOf, announceLiveEvents, storeLiveEvents, type LiveEventContent } from '../events/live-events.ts';
import { addJobCall, defineTask, wakeWorkersAfterCommit } from '../jobs/job-queue.ts';

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
}

export const emailNotificationTask = defineTask<{ notificationId: string }>('notifications.email');

/** Dollars as people read them. */
export const usd = (amount: number | string) => `$${Number(amount).toFixed(2)}`;

/**
 * `alsoPublish`: other live events for the same people, stored after the notification's in the same
 * statement (a booking's sale change to its seller), so their locks are taken once.
 */
export async function notify(tx: Executor, input: NotificationInput, alsoPublish: readonly LiveEventContent[] = []): Promise<void> {
  const to = addresseesOf(input.to);
  if (to.length === 0) return;
  const created = tx
    .insert(notifications)
    .values(to.map((userId) => ({ userId, kind: input.kind, text: input.text, link: input.link, image: input.image ?? null })))
    .returning({ id: notifications.id });
  const events = [{ type: 'notification.created', data: { kind: input.kind, text: input.text, link: input.link } }, ...alsoPublish];
  // The notifications, their e-mail jobs and the live events in one statement: { notificationId } is the task's payload.
  const emailJob = addJobCall(emailNotificationTask, sql`json_build_object('notificationId', created.id)`);
  await tx.execute(sql`with created as ${created}, published as (${storeLiveEvents(to, events)}) select ${emailJob} from created`);
  await wakeWorkersAfterCommit(tx);
  await announceLiveEvents(tx, to);
}
