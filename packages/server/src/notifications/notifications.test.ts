import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { notificationTexts } from '@furniture/contract';
import { bearer, testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { buildApp, type App } from '../app.ts';
import { productAndBuyer, send, startThread } from '../../test/conversation-fixtures.ts';
import { liveEvents } from '../db/schema/index.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { unsubscribeToken } from './notification-mail.ts';
import { emailNotificationTask } from './notify.ts';

/** Notifications in the app, as live events, and by e-mail through a real SMTP server. */

const PUBLIC_URL = 'https://furniture.example.com';
let database: TestDatabase;
let smtp: TestSmtpServer;
let app: App;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  app = await buildApp({
    config: testConfig({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' } }),
    db: database.db,
    jobs: { recurring: false },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await database?.drop();
});

type Headers = Record<string, string>;

async function notificationsOf(headers: Headers) {
  const response = await app.inject({ method: 'GET', url: '/api/notifications', headers });
  expect(response.statusCode).toBe(200);
  return response.json() as { data: Array<{ _id: string; kind: string; text: string; link: string; readAt: string | null }>; unread: number };
}

const mailFor = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));

/** A day passes: the digest jobs run, and the address has `count` e-mails in all. */
async function aDayLater(address: string, count: number) {
  await advanceJobClock(database.db, 24 * 60 * 60 * 1000);
  // The digest job runs, then its mail is sent: on a busy machine that takes longer than a poll's default second.
  await expect.poll(() => mailFor(address).length, { timeout: 15_000 }).toBe(count);
  return mailFor(address);
}

describe('notifications', () => {
  it('a message is a notification in the list, a live event, and an e-mail with a link back and a working unsubscribe link', async () => {
    const world = await productAndBuyer(app, database.db);
    const delivered = smtp.nextMail();
    const id = await startThread(app, world.buyerHeaders, world.product.id, 'Is it still available?');

    const text = notificationTexts.message(world.buyer.name, world.product.productName);
    const list = await notificationsOf(world.sellerHeaders);
    expect(list.unread).toBe(1);
    expect(list.data).toEqual([expect.objectContaining({ kind: 'message', text, link: `/dashboard/messages?thread=${id}`, readAt: null })]);
    const events = await database.db.select().from(liveEvents).where(eq(liveEvents.userId, world.seller.id));
    expect(events.map((event) => event.type)).toEqual(['message.created', 'notification.created']);
    expect((await notificationsOf(world.buyerHeaders)).data).toEqual([]);

    const mail = await delivered;
    expect(mail.envelope.to).toEqual([world.seller.email]);
    expect(mail.message.subject).toBe(text);
    expect(mail.message.html).toContain(`href="${PUBLIC_URL}/dashboard/messages?thread=${id}"`);
    expect(mail.message.text).toContain(`${PUBLIC_URL}/dashboard/messages?thread=${id}`);
    expect(mail.message.html).toContain(`<img src="${world.product.productImage}"`);
    const unsubscribeUrl = /href="(https:\/\/furniture\.example\.com\/api\/notification-settings\/unsubscribe\?token=[^"]+)"/.exec(mail.message.html as string)![1]!;

    // The link works without signing in, and then no more e-mails are sent.
    const unsubscribed = await app.inject({ method: 'GET', url: unsubscribeUrl.replace(PUBLIC_URL, '') });
    expect(unsubscribed.json()).toEqual({ success: true, message: notificationTexts.unsubscribed });
    const settings = await app.inject({ method: 'GET', url: '/api/me/notification-settings', headers: world.sellerHeaders });
    expect(settings.json().data).toEqual({ email: false, digest: false });

    const before = mailFor(world.seller.email).length;
    await send(app, world.buyerHeaders, id, 'Hello?');
    // Another person's e-mail goes out after the seller's job would have: had it been sent, it would be here.
    const other = await productAndBuyer(app, database.db);
    const next = smtp.nextMail();
    await startThread(app, other.buyerHeaders, other.product.id, 'Hi');
    await next;
    expect(mailFor(world.seller.email)).toHaveLength(before);
    expect((await notificationsOf(world.sellerHeaders)).unread).toBe(2);
  });

  it('unsubscribes by a mail client’s one-click post to the same link', async () => {
    const world = await productAndBuyer(app, database.db);
    const token = await unsubscribeToken(database.db, world.seller.id);
    const response = await app.inject({
      method: 'POST',
      url: `/api/notification-settings/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(response.statusCode).toBe(200);
    const settings = await app.inject({ method: 'GET', url: '/api/me/notification-settings', headers: world.sellerHeaders });
    expect(settings.json().data.email).toBe(false);
  });

  it('refuses an unsubscribe token the server did not sign', async () => {
    const world = await productAndBuyer(app, database.db);
    const forged = await app.inject({ method: 'GET', url: `/api/notification-settings/unsubscribe?token=${world.seller.id}.forged` });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(notificationTexts.unsubscribeInvalid);
  });

  it('marks the given notifications read, or all of them, and never another person’s', async () => {
    const world = await productAndBuyer(app, database.db);
    const id = await startThread(app, world.buyerHeaders, world.product.id, 'one');
    await send(app, world.buyerHeaders, id, 'two');
    await send(app, world.sellerHeaders, id, 'three');
    const [newest] = (await notificationsOf(world.sellerHeaders)).data;

    const byBuyer = await app.inject({ method: 'POST', url: '/api/notifications/read', headers: world.buyerHeaders, payload: { ids: [newest!._id] } });
    expect(byBuyer.json().data).toEqual({ unread: 1 });
    expect((await notificationsOf(world.sellerHeaders)).unread).toBe(2);

    const one = await app.inject({ method: 'POST', url: '/api/notifications/read', headers: world.sellerHeaders, payload: { ids: [newest!._id] } });
    expect(one.json().data).toEqual({ unread: 1 });
    const all = await app.inject({ method: 'POST', url: '/api/notifications/read', headers: world.sellerHeaders });
    expect(all.json().data).toEqual({ unread: 0 });
    expect((await notificationsOf(world.buyerHeaders)).unread).toBe(1);
  });

  it('with the digest on, sends one e-mail a day listing what is still unread', async () => {
    const world = await productAndBuyer(app, database.db);
    const saved = await app.inject({ method: 'PUT', url: '/api/me/notification-settings', headers: world.sellerHeaders, payload: { email: true, digest: true } });
    expect(saved.json().data).toEqual({ email: true, digest: true });
    const id = await startThread(app, world.buyerHeaders, world.product.id, 'first');
    await send(app, world.buyerHeaders, id, 'second');
    // Both notifications are waiting for the digest, not e-mailed.
    await expect.poll(async () => {
      const { rows } = await database.db.execute(
        `select 1 from graphile_worker.jobs where key = 'notification-digest:${world.seller.id}'`,
      );
      return rows.length;
    }).toBe(1);
    expect(mailFor(world.seller.email)).toHaveLength(0);

    const [mail] = await aDayLater(world.seller.email, 1);
    expect(mail!.message.subject).toBe(notificationTexts.digestSubject(2));
    expect(mail!.message.text).toContain(notificationTexts.message(world.buyer.name, world.product.productName));
  });

  const emailAttempt = (attempt: number) => nextOutcome(app, (outcome) => outcome.task === emailNotificationTask.name && outcome.attempt === attempt);
  const chooseDigest = async (headers: Headers) => {
    const saved = await app.inject({ method: 'PUT', url: '/api/me/notification-settings', headers, payload: { email: true, digest: true } });
    expect(saved.statusCode).toBe(200);
  };

  it('sends a notification’s e-mail again when the mail server refused it, and leaves it out of a later digest', async () => {
    const world = await productAndBuyer(app, database.db);
    smtp.refuseNext = 1;
    const refused = emailAttempt(1);
    const id = await startThread(app, world.buyerHeaders, world.product.id, 'Is it still available?');
    expect(await refused).toMatchObject({ status: 'will-retry' });
    expect(mailFor(world.seller.email)).toHaveLength(0);

    const delivered = smtp.nextMail();
    const accepted = emailAttempt(2);
    await advanceJobClock(database.db, 60_000);
    expect(await accepted).toMatchObject({ status: 'succeeded' });
    const first = notificationTexts.message(world.buyer.name, world.product.productName);
    expect((await delivered).message.subject).toBe(first);

    // With the digest chosen now, the next notification waits for it, and the digest lists that one alone.
    await chooseDigest(world.sellerHeaders);
    const waitsForDigest = emailAttempt(1);
    await send(app, world.buyerHeaders, id, 'Still there?');
    expect(await waitsForDigest).toMatchObject({ status: 'succeeded' });
    const [, digest] = await aDayLater(world.seller.email, 2);
    expect(digest!.message.subject).toBe(notificationTexts.digestSubject(1));
  });

  it('hands a refused e-mail to the digest when the person chose one before it was sent again', async () => {
    const world = await productAndBuyer(app, database.db);
    smtp.refuseNext = 1;
    const refused = emailAttempt(1);
    await startThread(app, world.buyerHeaders, world.product.id, 'Is it still available?');
    expect(await refused).toMatchObject({ status: 'will-retry' });

    await chooseDigest(world.sellerHeaders);
    const handedOver = emailAttempt(2);
    await advanceJobClock(database.db, 60_000);
    expect(await handedOver).toMatchObject({ status: 'succeeded' });
    expect(mailFor(world.seller.email)).toHaveLength(0);

    const [digest] = await aDayLater(world.seller.email, 1);
    expect(digest!.message.subject).toBe(notificationTexts.digestSubject(1));
    expect(digest!.message.text).toContain(notificationTexts.message(world.buyer.name, world.product.productName));
  });

  it('tells a buyer their booking was accepted, and the seller of the booking', async () => {
    const world = await productAndBuyer(app, database.db);
    const booked = await app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: world.buyerHeaders,
      payload: { productId: world.product.id, phoneNumber: '01712345678', location: 'Gulshan' },
    });
    expect((await notificationsOf(world.sellerHeaders)).data[0]).toMatchObject({ kind: 'booking-received', link: '/dashboard/sellerBookings' });
    await app.inject({ method: 'POST', url: `/api/bookings/${booked.json().data._id}/accept`, headers: await bearer(app, world.seller.id) });
    expect((await notificationsOf(world.buyerHeaders)).data[0]).toMatchObject({
      kind: 'booking-accepted',
      text: notificationTexts.bookingAccepted(world.product.productName),
      link: '/dashboard/myOrders',
    });
  });
});
