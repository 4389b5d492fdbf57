import { sql } from 'drizzle-orm';
import type { NotificationKind } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { notifications } from '../db/schema/index.ts';
import { publishLiveEvent } from '../events/live-events.ts';
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

export async function notify(tx: Executor, input: NotificationInput): Promise<void> {
  const to = [...new Set([input.to].flat())].sort();
  if (to.length === 0) return;
  const created = tx
    .insert(notifications)
    .values(to.map((userId) => ({ userId, kind: input.kind, text: input.text, link: input.link, image: input.image ?? null })))
    .returning({ id: notifications.id });
  // The notifications and their e-mail jobs in one statement: { notificationId } is the task's payload.
  const emailJob = addJobCall(emailNotificationTask, sql`json_build_object('notificationId', created.id)`);
  await tx.execute(sql`with created as ${created} select ${emailJob} from created`);
  await wakeWorkersAfterCommit(tx);
  await publishLiveEvent(tx, {
    to,
    type: 'notification.created',
    data: { kind: input.kind, text: input.text, link: input.link },
  });
}
