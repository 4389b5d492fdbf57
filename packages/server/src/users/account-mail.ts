import type { FastifyInstance } from 'fastify';
import { accountTexts, EMAIL_CHANGE_LINK_HOURS, RESET_LINK_HOURS, VERIFY_LINK_HOURS } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import { renderMail } from '../mail/mail-layout.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { issueAccountToken } from './account-tokens.ts';
import { findUserByEmail, type UserRow } from './user-repository.ts';

const { mail } = accountTexts;

/**
 * Sends the link to choose a new password, if the e-mail has an account. A job does it, so that the
 * request answers in the same time whether or not the account exists.
 */
export const passwordResetMailTask = defineTask<{ email: string }>('accounts.password-reset-mail');

export async function queuePasswordResetMail(db: Executor, email: string): Promise<void> {
  await enqueueJob(db, passwordResetMailTask, { email });
}

/** E-mails a link to verify the account's e-mail. Pass the transaction that made or changed the account. */
export async function sendVerificationMail(db: Executor, publicUrl: string, user: Pick<UserRow, 'id' | 'name' | 'email'>): Promise<void> {
  const token = await issueAccountToken(db, { userId: user.id, purpose: 'verify-email', email: user.email, hours: VERIFY_LINK_HOURS });
  const content = {
    heading: mail.verifyHeading,
    paragraphs: mail.verifyParagraphs(user.name),
    action: { label: mail.verifyAction, path: `/verify-email?token=${token}` },
  };
  await queueMail(db, { to: user.email, subject: mail.verifySubject, ...renderMail(content, publicUrl) });
}

/**
 * E-mails the new address a link that makes it the account's e-mail, and tells the current address
 * of the change asked. Pass the transaction of the request.
 */
export async function sendEmailChangeMail(db: Executor, publicUrl: string, user: Pick<UserRow, 'id' | 'name' | 'email'>, newEmail: string): Promise<void> {
  const token = await issueAccountToken(db, { userId: user.id, purpose: 'change-email', email: newEmail, hours: EMAIL_CHANGE_LINK_HOURS });
  const content = {
    heading: mail.changeEmailSubject,
    paragraphs: mail.changeEmailParagraphs(user.name),
    action: { label: mail.changeEmailAction, path: `/change-email?token=${token}` },
  };
  await queueMail(db, { to: newEmail, subject: mail.changeEmailSubject, ...renderMail(content, publicUrl) });
  await sendSecurityMail(db, publicUrl, user, { subject: mail.emailChangeAskedSubject, paragraphs: mail.emailChangeAskedParagraphs(user.name, newEmail) });
}

/**
 * Tells the account's owner of a change to how it signs in, and what to do if it was not them. Pass
 * the transaction of the change, when there is one.
 */
export async function sendSecurityMail(
  db: Executor,
  publicUrl: string,
  user: Pick<UserRow, 'name' | 'email'>,
  notice: { subject: string; paragraphs: readonly string[] },
): Promise<void> {
  const content = {
    heading: notice.subject,
    paragraphs: [...notice.paragraphs, mail.notYou],
    action: { label: mail.notYouAction, path: '/forgot-password' },
  };
  await queueMail(db, { to: user.email, subject: notice.subject, ...renderMail(content, publicUrl) });
}

export function registerAccountMail(app: FastifyInstance) {
  app.jobs.handle(passwordResetMailTask, async ({ email }) => {
    await app.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      if (!user) return;
      const token = await issueAccountToken(tx, { userId: user.id, purpose: 'reset-password', email: user.email, hours: RESET_LINK_HOURS });
      const content = {
        heading: mail.resetHeading,
        paragraphs: mail.resetParagraphs(user.name),
        action: { label: mail.resetAction, path: `/reset-password?token=${token}` },
      };
      await queueMail(tx, { to: user.email, subject: mail.resetSubject, ...renderMail(content, app.config.publicUrl) });
    });
  });
}
