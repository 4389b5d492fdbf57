import type { Executor } from '../db/client.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import type { MailMessage } from './mailer.ts';

/** What a job of `sendMailTask` carries. */
export interface QueuedMail extends MailMessage {
  /** ISO time it was queued: the message's Date. */
  queuedAt: string;
}

/**
 * Sends one e-mail. Retried with the queue's back-off for about 16 hours (12 attempts) while the
 * mail server refuses or cannot be reached; then given up, in the error log.
 */
export const sendMailTask = defineTask<QueuedMail>('mail.send', { maxAttempts: 12 });

/**
 * Queues an e-mail. Pass the transaction of the change the e-mail is about: it is sent only if that
 * change commits, and is not lost if the app stops before sending it. Build the bodies with
 * `renderMail`:
 *
 *   await queueMail(tx, { to: seller.email, subject: 'New offer on your sofa', ...renderMail(content, config.publicUrl) });
 */
export async function queueMail(db: Executor, message: MailMessage): Promise<void> {
  await enqueueJob(db, sendMailTask, { ...message, queuedAt: new Date().toISOString() });
}
