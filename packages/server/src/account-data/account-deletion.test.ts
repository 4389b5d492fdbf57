import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountDataTexts, DELETED_ACCOUNT_NAME, saleMessages } from '@furniture/contract';
import { bearer, setupSecondApp, setupTestApp } from '../../test/app.ts';
import { makeOffer, send, startThread } from '../../test/conversation-fixtures.ts';
import { bookingRow, bookingStep, paidSaleOf, productRow, saleOf } from '../../test/sale-fixtures.ts';
import { auditLog, bookings, notifications, offers, passkeys, payments, refreshTokens, saleFunds, users, wishes } from '../db/schema/index.ts';
import { createBooking, createProduct, createUser, createWish, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { balancesOf, ledgerTotals } from '../ledger/ledger.ts';
import { LOGIN_THROTTLE } from '../users/login-throttle.ts';
import { deletedEmailOf } from './account-deletion.ts';

const ORIGIN = 'https://furniture.example.com';
const t = setupTestApp({ publicUrl: ORIGIN });
const other = setupSecondApp(t);
const { server } = accountDataTexts;

type Headers = Record<string, string>;

const deleteAccount = (headers: Headers, payload: object) => t.app.inject({ method: 'DELETE', url: '/api/me', headers, payload });

async function signIn(email: string, password = DEFAULT_TEST_PASSWORD) {
  return t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row!;
}

/** A passkey of the account, as a real authenticator keeps it: a P-256 key whose public half the server stores (COSE). */
async function addPasskeyTo(userId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  const cose = Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    Buffer.from(x!, 'base64url'),
    Buffer.from([0x22, 0x58, 0x20]),
    Buffer.from(y!, 'base64url'),
  ]);
  const credentialId = randomBytes(16).toString('base64url');
  await t.db.insert(passkeys).values({ userId, credentialId, publicKey: cose.toString('base64url'), name: 'Chrome on Linux' });
  /** The authenticator's signed answer to the server's latest sign-in challenge. */
  return async () => {
    const options = await t.app.inject({ method: 'POST', url: '/api/auth/passkey/options' });
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.json().data.challenge, origin: ORIGIN }));
    const rpIdHash = createHash('sha256').update(new URL(ORIGIN).hostname).digest();
    // User present and verified, signature counter 1.
    const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([0x05, 0, 0, 0, 1])]);
    const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]), privateKey);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
      clientExtensionResults: {},
    };
  };
}

describe('DELETE /api/me: a seller who also buys deletes their account', () => {
  it('ends their sales on both sides, takes down their listings, keeps their messages as "Deleted account", and frees the e-mail', async () => {
    const seller = await createUser(t.db, { role: 'seller', verified: true, name: 'Leaving Seller' });
    // Open, accepted and paid (money held) bookings on the seller's pieces, and a listing nobody booked.
    const open = await saleOf(t.app, t.db, { seller });
    const accepted = await saleOf(t.app, t.db, { seller });
    expect((await bookingStep(t.app, accepted.sellerHeaders, accepted.buyers[0]!.booking.id, 'accept')).statusCode).toBe(200);
    const paid = await paidSaleOf(t.app, t.db, { seller });
    const unbooked = await createProduct(t.db, { categoryId: open.category.id, sellerId: seller.id });
    // As a buyer: their own open booking of someone else's piece, and a wish.
    const elsewhere = await saleOf(t.app, t.db);
    const ownBooking = await createBooking(t.db, elsewhere.product, seller.id);
    await createWish(t.db, { buyerId: seller.id, productId: elsewhere.product.id });
    // A buyer's thread with an open offer and a message the buyer has not read yet.
    const asker = await createUser(t.db, { role: 'buyer', password: null });
    const askerHeaders = await bearer(t.app, asker.id);
    const threadId = await startThread(t.app, askerHeaders, unbooked.id, 'Is it still there?');
    expect((await makeOffer(t.app, askerHeaders, threadId, 40)).statusCode).toBe(201);
    const sellerHeaders = { authorization: `bearer ${(await signIn(seller.email)).json().token}` };
    expect((await send(t.app, sellerHeaders, threadId, 'Yes, come and see it')).statusCode).toBe(201);
    expect((await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: sellerHeaders })).statusCode).toBe(200);

    const deleted = await deleteAccount(sellerHeaders, { password: DEFAULT_TEST_PASSWORD });
    expect(deleted.json()).toEqual({ success: true, message: server.deleted });
    expect(deleted.headers['set-cookie']).toEqual(expect.stringContaining('Max-Age=0'));

    // Every session is over, on every server.
    for (const app of [t.app, other.app]) expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: sellerHeaders })).statusCode).toBe(401);
    expect(await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, seller.id))).toEqual([]);

    // The buyers of unpaid bookings are told their booking was declined, and why.
    for (const sale of [open, accepted]) {
      const booking = await bookingRow(t.db, sale.buyers[0]!.booking.id);
      expect(booking).toMatchObject({ status: 'declined', statusReason: server.sellerLeft });
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, sale.buyers[0]!.user.id));
      expect(told.map((notice) => notice.kind)).toContain('booking-declined');
    }
    // The paid sale is refunded to its buyer as a seller's refund is, and the books still balance.
    expect(await bookingRow(t.db, paid.booking.id)).toMatchObject({ status: 'cancelled', statusReason: saleMessages.reasons.refunded });
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, paid.booking.id));
    expect(payment).toMatchObject({ status: 'refunded', refundId: expect.stringMatching(/^re_/) });
    const [funds] = await t.db.select().from(saleFunds).where(eq(saleFunds.bookingId, paid.booking.id));
    expect(funds!.state).toBe('refunded');
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 0 });
    expect((await ledgerTotals(t.db)).sumCents).toBe(0);

    // Every listing is off the market.
    for (const productId of [open.product.id, accepted.product.id, paid.product.id, unbooked.id]) {
      expect(await productRow(t.db, productId)).toMatchObject({ state: 'withdrawn', phone: '' });
    }
    // Their own booking as a buyer is cancelled, their wish gone.
    expect(await bookingRow(t.db, ownBooking.id)).toMatchObject({ status: 'cancelled', phoneNumber: '' });
    expect(await t.db.select().from(wishes).where(eq(wishes.buyerId, seller.id))).toEqual([]);

    // The asker keeps the thread: the offer is closed, the unread message is there, from "Deleted account".
    const [offer] = await t.db.select().from(offers).where(eq(offers.conversationId, threadId));
    expect(offer!.status).toBe('declined');
    const threads = (await t.app.inject({ method: 'GET', url: '/api/conversations', headers: askerHeaders })).json().data;
    expect(threads).toEqual([expect.objectContaining({ _id: threadId, sellerName: DELETED_ACCOUNT_NAME, unread: 1 })]);
    const messages = (await t.app.inject({ method: 'GET', url: `/api/conversations/${threadId}/messages`, headers: askerHeaders })).json().data;
    expect(messages.map((message: { text: string }) => message.text)).toEqual(expect.arrayContaining(['Is it still there?', 'Yes, come and see it']));

    // Nothing identifies the person any more; the audit log keeps who deleted what.
    expect(await userRow(seller.id)).toMatchObject({
      name: DELETED_ACCOUNT_NAME,
      email: deletedEmailOf(seller.id),
      image: null,
      phone: null,
      location: null,
      passwordHash: null,
      capabilities: [],
    });
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.targetId, seller.id), eq(auditLog.action, 'account.delete')));
    expect(entry).toMatchObject({ actorId: seller.id, actorEmail: seller.email, targetLabel: seller.email });

    // The old password opens nothing, and the e-mail registers again as a new account.
    expect((await signIn(seller.email)).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'Back Again', email: seller.email, password: 'Another123', image: 'https://images.example.com/back.webp', userRole: 'buyer' },
    });
    expect(again.statusCode).toBe(201);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${again.json().token}` } });
    expect(me.json().data).toMatchObject({ email: seller.email, name: 'Back Again' });
    expect(me.json().data._id).not.toBe(seller.id);
  });
});

describe('DELETE /api/me: a buyer deletes their account', () => {
  it('refunds a paid sale whose money is held, and cancels their open booking', async () => {
    const buyer = await createUser(t.db, { role: 'buyer' });
    const paid = await paidSaleOf(t.app, t.db);
    await t.db.update(bookings).set({ buyerId: buyer.id }).where(eq(bookings.id, paid.booking.id));
    await t.db.update(payments).set({ buyerId: buyer.id }).where(eq(payments.bookingId, paid.booking.id));
    const open = await saleOf(t.app, t.db);
    const openBooking = await createBooking(t.db, open.product, buyer.id);
    const headers = await bearer(t.app, buyer.id);

    expect((await deleteAccount(headers, { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(200);

    expect(await bookingRow(t.db, paid.booking.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, paid.booking.id));
    expect(payment!.status).toBe('refunded');
    expect(await balancesOf(t.db, paid.seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 0 });
    expect((await ledgerTotals(t.db)).sumCents).toBe(0);
    // The piece the buyer will not collect is on sale again.
    expect(await productRow(t.db, paid.product.id)).toMatchObject({ state: 'available' });
    expect(await bookingRow(t.db, openBooking.id)).toMatchObject({ status: 'cancelled', statusReason: saleMessages.reasons.cancelledByBuyer });
  });
});

describe('DELETE /api/me: proving the owner', () => {
  it('refuses a wrong password with 403, deleting nothing, and counts it as a failed sign-in', async () => {
    const user = await createUser(t.db);
    const headers = await bearer(t.app, user.id);
    const attempt = () => deleteAccount(headers, { password: 'Wrong1234' });
    const wrong = await attempt();
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(server.wrongPassword);
    expect((await userRow(user.id)).email).toBe(user.email);
    for (let i = 1; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress; i++) await attempt();
    expect((await attempt()).statusCode).toBe(429);
  });

  it('asks for a password or a passkey when the request has neither', async () => {
    const headers = await bearer(t.app, (await createUser(t.db)).id);
    const response = await deleteAccount(headers, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((error: { message: string }) => error.message)).toEqual([server.confirmNeeded]);
  });

  it('tells an account without a password to confirm with a passkey', async () => {
    const headers = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    const response = await deleteAccount(headers, { password: 'Anything1' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(server.noPasswordYet);
  });

  it('accepts a passkey of the account signed just now, and refuses another account’s', async () => {
    const user = await createUser(t.db, { password: null });
    const stranger = await createUser(t.db);
    const headers = await bearer(t.app, user.id);
    const strangersAnswer = await addPasskeyTo(stranger.id);
    const refused = await deleteAccount(headers, { passkey: await strangersAnswer() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(server.passkeyOfAnother);
    expect((await userRow(user.id)).name).toBe(user.name);

    const ownAnswer = await addPasskeyTo(user.id);
    const deleted = await deleteAccount(headers, { passkey: await ownAnswer() });
    expect(deleted.json()).toEqual({ success: true, message: server.deleted });
    expect((await userRow(user.id)).name).toBe(DELETED_ACCOUNT_NAME);
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });
});

describe('DELETE /api/me: the last admin', () => {
  it('keeps the last admin with 409 and a sentence saying why; with another admin, the account goes', async () => {
    // Every admin of this file's database is one of this test's.
    await t.db.update(users).set({ capabilities: ['buy'], role: 'buyer' }).where(eq(users.role, 'admin'));
    const admin = await createUser(t.db, { role: 'admin' });
    const headers = await bearer(t.app, admin.id);
    const refused = await deleteAccount(headers, { password: DEFAULT_TEST_PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(server.lastAdmin);
    expect((await userRow(admin.id)).capabilities).toEqual(['admin']);

    await createUser(t.db, { role: 'admin', password: null });
    expect((await deleteAccount(headers, { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('a deleted account', () => {
  it('leaves no phone number or meeting place on the offers it made', async () => {
    const { product } = await saleOf(t.app, t.db);
    const buyer = await createUser(t.db, { role: 'buyer' });
    const headers = await bearer(t.app, buyer.id);
    const threadId = await startThread(t.app, headers, product.id);
    expect((await makeOffer(t.app, headers, threadId, 10, { phoneNumber: '01711111111', location: 'Gulshan lake park' })).statusCode).toBe(201);
    expect((await deleteAccount(headers, { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(200);
    const [offer] = await t.db.select().from(offers).where(eq(offers.conversationId, threadId));
    expect(offer).toMatchObject({ phoneNumber: null, meetingPlace: null });
  });

  it('is not among the accounts an admin manages', async () => {
    const buyer = await createUser(t.db, { role: 'buyer' });
    const admin = await bearer(t.app, (await createUser(t.db, { role: 'admin' })).id);
    const listed = async (q: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/allBuyer?q=${encodeURIComponent(q)}`, headers: admin })).json().data.map((user: { _id: string }) => user._id);
    expect(await listed(buyer.email)).toEqual([buyer.id]);
    expect((await deleteAccount(await bearer(t.app, buyer.id), { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(200);
    // Its row stays, under an address that names it deleted, for the payments and reviews that name it.
    expect((await userRow(buyer.id)).email).toBe(deletedEmailOf(buyer.id));
    expect(await listed(deletedEmailOf(buyer.id))).toEqual([]);
  });
});
