import type { NotificationKind } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { notifications } from '../db/schema/index.ts';
import { publishLiveEvent } from '../events/live-events.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';

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
  const rows = await tx
    .insert(notifications)
    .values(to.map((userId) => ({ userId, kind: input.kind, text: input.text, link: input.link, image: input.image ?? null })))
    .returning();
  for (const row of rows) await enqueueJob(tx, emailNotificationTask, { notificationId: row.id });
  await publishLiveEvent(tx, {
    to,
    type: 'notification.created',
    data: { kind: input.kind, text: input.text, link: input.link },
  });
}
