import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notificationTexts } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { appSecrets, notifications, notificationSettings, users } from '../db/schema/index.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import { renderMail } from '../mail/mail-layout.ts';
import { messageIdOf } from '../mail/mail-plugin.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { DEFAULT_NOTIFICATION_SETTINGS, settingsOf } from './notification-repository.ts';
import { emailNotificationTask } from './notify.ts';

/**
 * Notifications by e-mail (decision 22): each one at once, or a daily digest of those not yet read,
 * as the person chose; nothing when they turned e-mail off. Every e-mail carries an unsubscribe link
 * whose token is signed with a secret kept in the database, so it works without signing in and on
 * every app server.
 */

export const notificationDigestTask = defineTask<{ userId: string }>('notifications.digest');
const DIGEST_DELAY_MS = 24 * 60 * 60 * 1000;

async function storedSigningKey(db: Executor): Promise<string | undefined> {
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, 'unsubscribe-links'));
  return row?.value;
}

/** Made when the first link is signed; checking a link never writes (without it, no link was signed). */
async function signingKey(db: Executor): Promise<string> {
  await db.insert(appSecrets).values({ name: 'unsubscribe-links', value: randomBytes(48).toString('base64url') }).onConflictDoNothing();
  return (await storedSigningKey(db))!;
}

const signatureOf = (key: string, userId: string) => createHmac('sha256', key).update(`unsubscribe:${userId}`).digest('base64url');

const tokenOf = (key: string, userId: string) => `${userId}.${signatureOf(key, userId)}`;

export async function unsubscribeToken(db: Executor, userId: string): Promise<string> {
  return tokenOf(await signingKey(db), userId);
}

/** The account a token unsubscribes, or undefined for a token this app did not sign. */
export async function accountOfUnsubscribeToken(db: Executor, token: string): Promise<string | undefined> {
  const [userId, signature] = token.split('.');
  const key = await storedSigningKey(db);
  if (!userId || !signature || !key) return undefined;
  const expected = Buffer.from(signatureOf(key, userId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}

export function registerNotificationMail(app: FastifyInstance) {
  // The key never changes once made, so each app server reads it once, not twice per e-mail.
  let key: Promise<string> | undefined;
  const keptSigningKey = () => {
    key ??= signingKey(app.db).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
  const mailHost = new URL(app.config.publicUrl).hostname;
  const unsubscribePath = async (userId: string) =>
    `/api/notification-settings/unsubscribe?token=${encodeURIComponent(tokenOf(await keptSigningKey(), userId))}`;

  // Sent by this job itself rather than through a mail.send job of its own (decision 25): one job
  // per notification instead of two. Delivery stays at least once, under one Message-ID per job.
  // One statement reads the notification and claims it (`emailed_at`) for an e-mail of its own, so
  // the digest leaves it out: a booking's e-mail, the busiest, costs the database no second
  // statement to record it (decision 25). A later attempt of the job (the mail server refused, or
  // the app died mid-send) reads it despite its claim and sends it again; should the person have
  // chosen a digest meanwhile, that attempt hands it back to the digest. Prepared once: parsed and
  // planned once per connection.
  const { email: emailByDefault, digest: digestByDefault } = DEFAULT_NOTIFICATION_SETTINGS;
  const toEmail = app.db.$with('to_email').as(
    app.db
      .select({
        id: notifications.id,
        userId: notifications.userId,
        text: notifications.text,
        link: notifications.link,
        image: notifications.image,
        createdAt: notifications.createdAt,
        address: users.email,
        byEmail: sql<boolean>`coalesce(${notificationSettings.email}, ${emailByDefault}::boolean)`.as('by_email'),
        digest: sql<boolean>`coalesce(${notificationSettings.digest}, ${digestByDefault}::boolean)`.as('digest'),
      })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, notifications.userId))
      .where(and(eq(notifications.id, sql.placeholder('notificationId')), or(isNull(notifications.emailedAt), sql`${sql.placeholder('retry')}::boolean`))),
  );
  const alone = sql`(${toEmail.byEmail} and not ${toEmail.digest})`;
  const claimed = app.db.$with('claimed', {}).as(sql`
    update ${notifications} set ${sql.identifier(notifications.emailedAt.name)} = case when ${alone} then now() end
    from ${toEmail} where ${notifications.id} = ${toEmail.id} and (${alone} or ${sql.placeholder('retry')}::boolean)`);
  const claimNotificationToEmail = app.db.with(toEmail, claimed).select().from(toEmail).prepare('claim_notification_to_email');

  app.jobs.handle(emailNotificationTask, async ({ notificationId }, job) => {
    const [notification] = await claimNotificationToEmail.execute({ notificationId, retry: job.attempt > 1 });
    if (!notification?.byEmail) return;
    if (notification.digest) {
      const runAt = new Date(Date.now() + DIGEST_DELAY_MS);
      await enqueueJob(app.db, notificationDigestTask, { userId: notification.userId }, { runAt, key: `notification-digest:${notification.userId}`, keepRunAt: true });
      return;
    }
    const rendered = renderMail(
      {
        heading: notification.text,
        paragraphs: [],
        ...(notification.image ? { image: { url: notification.image, alt: '' } } : {}),
        action: { label: notificationTexts.openInApp, path: notification.link },
        unsubscribePath: await unsubscribePath(notification.userId),
      },
      app.config.publicUrl,
    );
    const queuedAt = notification.createdAt.toISOString();
    await app.mailer.send({ to: notification.address, subject: notification.text, ...rendered, queuedAt, messageId: messageIdOf(queuedAt, job.id, mailHost) });
  });

  app.jobs.handle(notificationDigestTask, async ({ userId }) => {
    await app.db.transaction(async (tx) => {
      const settings = await settingsOf(tx, userId);
      if (!settings.email) return;
      const pending = await tx
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.emailedAt), isNull(notifications.readAt)))
        .orderBy(asc(notifications.createdAt))
        .for('update');
      const [account] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (pending.length === 0 || !account) return;
      const rendered = renderMail(
        {
          heading: notificationTexts.digestSubject(pending.length),
          paragraphs: [notificationTexts.digestIntro, ...pending.map((notification) => notification.text)],
          action: { label: notificationTexts.openInApp, path: '/dashboard' },
          unsubscribePath: await unsubscribePath(userId),
        },
        app.config.publicUrl,
      );
      await queueMail(tx, { to: account.email, subject: notificationTexts.digestSubject(pending.length), ...rendered });
      for (const notification of pending) {
        await tx.update(notifications).set({ emailedAt: new Date() }).where(eq(notifications.id, notification.id));
      }
    });
  });
}
