import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationTexts, trustTexts, type ModerationAction, type ReportedTarget, type SellerProduct } from '@furniture/contract';
import type { Config } from '../config.ts';
import { bearer, setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { createBooking, createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { auditLog, listingAppeals, liveEvents, notifications, refreshTokens, reports } from '../db/schema/index.ts';
import { makeOffer, startThread } from '../../test/conversation-fixtures.ts';
import { payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow, productRow, saleOf } from '../../test/sale-fixtures.ts';

let smtp: TestSmtpServer;
const overrides: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  overrides.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp.close());

const t = setupTestApp(overrides);
// A statement sent on a connection still busy with another fails the test, where node-postgres only
// warns (and will refuse it): the queue and a report's context are read inside a transaction.
process.throwDeprecation = true;

type Headers = Record<string, string>;

const adminHeaders = async () => bearer(t.app, (await createUser(t.db, { role: 'admin', password: null })).id);

async function fileReport(headers: Headers, payload: object) {
  return t.app.inject({ method: 'POST', url: '/api/reports', headers, payload });
}

/** A listing reported by one buyer, with its sale's people. */
async function reportedListing() {
  const sale = await saleOf(t.app, t.db);
  const reporter = await createUser(t.db, { role: 'buyer', password: null });
  const reporterHeaders = await bearer(t.app, reporter.id);
  const response = await fileReport(reporterHeaders, { targetType: 'product', targetId: sale.product.id, reason: 'scam', note: 'Asks for a bank transfer' });
  expect(response.statusCode).toBe(201);
  return { ...sale, reporter, reporterHeaders, reportId: response.json().data.id as string };
}

async function act(headers: Headers, reportId: string, action: ModerationAction, reason = 'Against the rules') {
  return t.app.inject({ method: 'POST', url: `/api/admin/reports/${reportId}/actions`, headers, payload: { action, reason } });
}

async function publicSearchIds() {
  const response = await t.app.inject({ method: 'GET', url: '/api/products?limit=100' });
  return (response.json().data as Array<{ _id: string }>).map((product) => product._id);
}

async function auditEntriesOf(targetId: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id);
}

async function appeal(headers: Headers, productId: string, text = 'The photos are my own, taken at home') {
  return t.app.inject({ method: 'POST', url: `/api/products/${productId}/appeal`, headers, payload: { text } });
}

async function answerAppeal(headers: Headers, appealId: string, answer: 'restore' | 'keep', reason = 'Checked the receipt') {
  return t.app.inject({ method: 'POST', url: `/api/admin/appeals/${appealId}/answer`, headers, payload: { answer, reason } });
}

async function queue(headers: Headers, status?: 'open' | 'closed') {
  const response = await t.app.inject({ method: 'GET', url: `/api/admin/reports${status ? `?status=${status}` : ''}`, headers });
  expect(response.statusCode).toBe(200);
  return response.json().data as ReportedTarget[];
}

async function myProduct(headers: Headers, email: string, productId: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${encodeURIComponent(email)}`, headers });
  return (response.json().data as SellerProduct[]).find((product) => product._id === productId)!;
}

/** A reported listing an admin hid, with the admin's headers. */
async function hiddenListing() {
  const listing = await reportedListing();
  const headers = await adminHeaders();
  expect((await act(headers, listing.reportId, 'hide', 'Looks like a counterfeit')).statusCode).toBe(200);
  return { ...listing, adminHeaders: headers };
}

/** A buyer's open offer on the listing, in their thread with its seller. */
async function openOfferOn(productId: string) {
  const buyer = await createUser(t.db, { role: 'buyer', password: null });
  const buyerHeaders = await bearer(t.app, buyer.id);
  const conversationId = await startThread(t.app, buyerHeaders, productId, 'Would you take less?');
  const made = await makeOffer(t.app, buyerHeaders, conversationId, 90);
  expect(made.statusCode).toBe(201);
  return { buyer, buyerHeaders, conversationId, offerId: made.json().data._id as string };
}

async function notificationTextsOf(userId: string) {
  return (await t.db.select().from(notifications).where(eq(notifications.userId, userId))).map((row) => row.text);
}

describe('POST /api/reports', () => {
  it('files a report and marks the listing reported while it is open', async () => {
    const { product, reportId, reporter } = await reportedListing();
    expect((await productRow(t.db, product.id)).reported).toBe(true);
    const [row] = await t.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row).toMatchObject({ reporterId: reporter.id, reason: 'scam', note: 'Asks for a bank transfer', status: 'open' });
  });

  it('refuses a second open report of the same target by the same person, with 409', async () => {
    const { product, reporterHeaders } = await reportedListing();
    const again = await fileReport(reporterHeaders, { targetType: 'product', targetId: product.id, reason: 'other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.alreadyReported);
  });

  it('refuses the seller reporting their own listing, and anyone reporting themselves, with 403', async () => {
    const { product, seller, sellerHeaders } = await saleOf(t.app, t.db);
    const own = await fileReport(sellerHeaders, { targetType: 'product', targetId: product.id, reason: 'other' });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(trustTexts.cannotReportOwn);
    const self = await fileReport(sellerHeaders, { targetType: 'user', targetId: seller.id, reason: 'other' });
    expect(self.statusCode).toBe(403);
  });

  it('answers 404 for a target that does not exist and 400 naming a bad reason', async () => {
    const headers = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    const missing = await fileReport(headers, { targetType: 'product', targetId: '00000000-0000-4000-8000-000000000000', reason: 'other' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(trustTexts.reportTargetNotFound);
    const bad = await fileReport(headers, { targetType: 'product', targetId: '00000000-0000-4000-8000-000000000000', reason: 'ugly' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('reason');
  });
});

describe('GET /api/admin/reports', () => {
  it('groups open reports by target, most-reported first, with the target’s details', async () => {
    const once = await reportedListing();
    const twice = await reportedListing();
    const second = await createUser(t.db, { password: null });
    await fileReport(await bearer(t.app, second.id), { targetType: 'product', targetId: twice.product.id, reason: 'offensive' });

    const response = await t.app.inject({ method: 'GET', url: '/api/admin/reports', headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    const targets = response.json().data as Array<{ targetId: string; reportCount: number; title: string; ownerEmail: string }>;
    const ids = targets.map((target) => target.targetId);
    expect(ids.indexOf(twice.product.id)).toBeLessThan(ids.indexOf(once.product.id));
    expect(targets.find((target) => target.targetId === twice.product.id)).toMatchObject({
      reportCount: 2,
      title: twice.product.productName,
      ownerEmail: twice.seller.email,
    });
  });
});

describe('POST /api/admin/reports/{id}/actions', () => {
  it('dismiss closes the target’s open reports, clears the flag, and is audited', async () => {
    const { product, reportId } = await reportedListing();
    const response = await act(await adminHeaders(), reportId, 'dismiss', 'Described fairly');
    expect(response.json()).toEqual({ success: true, message: trustTexts.moderationDone.dismiss });
    expect((await productRow(t.db, product.id)).reported).toBe(false);
    const [row] = await t.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row!.status).toBe('dismissed');
    expect(await auditEntriesOf(product.id)).toEqual([expect.objectContaining({ action: 'report.dismiss', reason: 'Described fairly' })]);
    // Dismissing twice: the report is no longer open.
    expect((await act(await adminHeaders(), reportId, 'dismiss')).statusCode).toBe(409);
  });

  it('hide takes the listing out of every public list and page, declines its bookings, and tells the seller why', async () => {
    const { product, seller, reportId, buyers } = await reportedListing();
    expect(await publicSearchIds()).toContain(product.id);

    const response = await act(await adminHeaders(), reportId, 'hide', 'Looks like a counterfeit');
    expect(response.json().message).toBe(trustTexts.moderationDone.hide);

    expect(await publicSearchIds()).not.toContain(product.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(410);
    expect(await productRow(t.db, product.id)).toMatchObject({ moderation: 'hidden', moderationReason: 'Looks like a counterfeit', reported: false });
    expect(await bookingRow(t.db, buyers[0]!.booking.id)).toMatchObject({ status: 'declined', statusReason: 'Looks like a counterfeit' });
    const wish = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: buyers[0]!.headers, payload: { productId: product.id } });
    expect(wish.statusCode).toBe(404);

    const events = await t.db.select().from(liveEvents).where(and(eq(liveEvents.userId, seller.id), eq(liveEvents.type, 'listing.moderated')));
    expect(events.map((event) => event.data)).toEqual([
      { productId: product.id, productName: product.productName, moderation: 'hidden', reason: 'Looks like a counterfeit' },
    ]);
    // The declined buyers are told too, so the seller's mail is found by its subject, not its turn.
    const received = await mailWithSubject(trustTexts.listingHiddenTitle(product.productName));
    expect(received.envelope.to).toEqual([seller.email]);
    expect(received.message.text).toContain(trustTexts.listingModeratedBody('Looks like a counterfeit'));
    expect(await auditEntriesOf(product.id)).toEqual([expect.objectContaining({ action: 'report.hide' })]);
  });

  it('remove takes the listing out for good, and restore brings a hidden or removed listing back', async () => {
    const { product, reportId } = await reportedListing();
    const headers = await adminHeaders();
    expect((await act(headers, reportId, 'remove')).statusCode).toBe(200);
    expect((await productRow(t.db, product.id)).moderation).toBe('removed');
    expect(await publicSearchIds()).not.toContain(product.id);

    expect((await act(headers, reportId, 'restore', 'Seller showed the receipt')).json().message).toBe(trustTexts.moderationDone.restore);
    expect((await productRow(t.db, product.id)).moderation).toBeNull();
    expect(await publicSearchIds()).toContain(product.id);
    expect((await auditEntriesOf(product.id)).map((entry) => entry.action)).toEqual(['report.remove', 'report.restore']);

    const again = await act(headers, reportId, 'restore');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.nothingToRestore);
  });

  it('suspend ends the seller’s sessions at once, refuses sign-in, hides their listings and refunds their paid sales', async () => {
    const sale = await saleOf(t.app, t.db);
    const seller = await createUser(t.db, { role: 'seller' });
    const sellerHeaders = await bearer(t.app, seller.id);
    // Two listings of the seller: one paid for, one booked and unpaid.
    const category = await createCategory(t.db);
    const paidListing = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const bookedListing = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const buyer = sale.buyers[0]!;
    const paidBooking = await createBooking(t.db, paidListing, buyer.user.id);
    const openBooking = await createBooking(t.db, bookedListing, buyer.user.id);
    const { transactionId } = await payByCard(t.app, buyer.headers, paidBooking.id);
    await postPayment(t.app, buyer.headers, { transactionId, productId: paidListing.id, bookingId: paidBooking.id });
    expect((await bookingRow(t.db, paidBooking.id)).status).toBe('paid');

    const reporterHeaders = await bearer(t.app, sale.seller.id);
    const filed = await fileReport(reporterHeaders, { targetType: 'user', targetId: seller.id, reason: 'scam' });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: sellerHeaders })).statusCode).not.toBe(401);

    const response = await act(await adminHeaders(), filed.json().data.id, 'suspend', 'Takes payment outside the marketplace');
    expect(response.json().message).toBe(trustTexts.moderationDone.suspend);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: sellerHeaders });
    expect(me.statusCode).toBe(401);
    expect(await t.db.select().from(refreshTokens).where(and(eq(refreshTokens.userId, seller.id), isNull(refreshTokens.revokedAt)))).toEqual([]);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: seller.email, password: DEFAULT_TEST_PASSWORD } });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe(trustTexts.accountSuspended);

    const search = await publicSearchIds();
    expect(search).not.toContain(paidListing.id);
    expect(search).not.toContain(bookedListing.id);
    expect(await bookingRow(t.db, openBooking.id)).toMatchObject({ status: 'declined', statusReason: 'Takes payment outside the marketplace' });
    expect(await bookingRow(t.db, paidBooking.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    const [payment] = await paymentsOfProduct(t.db, paidListing.id);
    expect(payment).toMatchObject({ status: 'refunded', refundId: expect.stringMatching(/^re_/) });
    expect(await auditEntriesOf(seller.id)).toEqual([expect.objectContaining({ action: 'report.suspend', targetType: 'user' })]);
    const told = await mailWithSubject(trustTexts.accountSuspendedTitle, seller.email);
    expect(told.message.text).toContain(trustTexts.accountSuspendedBody('Takes payment outside the marketplace'));
  });

  it('refuses to hide an account, to suspend an admin, and an unknown report; a refused action writes no audit entry', async () => {
    const reporter = await createUser(t.db, { password: null });
    const someone = await createUser(t.db, { password: null });
    const filed = await fileReport(await bearer(t.app, reporter.id), { targetType: 'user', targetId: someone.id, reason: 'offensive' });
    const headers = await adminHeaders();

    const hide = await act(headers, filed.json().data.id, 'hide');
    expect(hide.statusCode).toBe(409);
    expect(hide.json().message).toBe(trustTexts.actionNotForUser);

    const admin = await createUser(t.db, { role: 'admin', password: null });
    const aboutAdmin = await fileReport(await bearer(t.app, reporter.id), { targetType: 'user', targetId: admin.id, reason: 'other' });
    const suspend = await act(headers, aboutAdmin.json().data.id, 'suspend');
    expect(suspend.statusCode).toBe(403);
    expect(suspend.json().message).toBe(trustTexts.cannotSuspendAdmin);
    expect((await t.db.select().from(reports).where(eq(reports.id, aboutAdmin.json().data.id)))[0]!.status).toBe('open');

    const unknown = await act(headers, '00000000-0000-4000-8000-000000000000', 'dismiss');
    expect(unknown.statusCode).toBe(404);
    const noReason = await t.app.inject({ method: 'POST', url: `/api/admin/reports/${filed.json().data.id}/actions`, headers, payload: { action: 'dismiss', reason: ' ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain(trustTexts.reasonRequired);

    expect(await auditEntriesOf(someone.id)).toEqual([]);
    expect(await auditEntriesOf(admin.id)).toEqual([]);
  });
});

/** Waits for the mail with this subject (to this address, if given) to reach the SMTP server, however long the job queue takes. */
async function mailWithSubject(subject: string, to?: string) {
  for (;;) {
    const found = smtp.received.find((mail) => mail.message.subject === subject && (!to || mail.envelope.to.includes(to)));
    if (found) return found;
    // Registered in the same turn as the look above, so a mail arriving after it is not missed.
    await smtp.nextMail();
  }
}

describe('POST /api/products/{id}/appeal', () => {
  it('lets the seller appeal a hidden listing once; the appeal tops the queue and shows in My Products', async () => {
    const { product, seller, sellerHeaders, adminHeaders: admin } = await hiddenListing();
    const before = await myProduct(sellerHeaders, seller.email, product.id);
    expect(before).toMatchObject({ moderation: 'hidden', moderationReason: 'Looks like a counterfeit', canAppeal: true, appeal: null });
    // Another target with more open reports waits in the queue too.
    const busier = await reportedListing();
    await fileReport(await bearer(t.app, (await createUser(t.db, { password: null })).id), { targetType: 'product', targetId: busier.product.id, reason: 'other' });

    const response = await appeal(sellerHeaders, product.id);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ message: trustTexts.appealSent, data: { productId: product.id, status: 'pending', answer: null } });

    const [first] = await queue(admin);
    expect(first).toMatchObject({
      targetId: product.id,
      moderation: 'hidden',
      reportCount: 0,
      appeal: { status: 'pending', text: 'The photos are my own, taken at home' },
    });
    expect(await myProduct(sellerHeaders, seller.email, product.id)).toMatchObject({ canAppeal: false, appeal: { status: 'pending' } });

    const again = await appeal(sellerHeaders, product.id, 'Please look again');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.appealAlreadySent);
    expect(await t.db.select().from(listingAppeals).where(eq(listingAppeals.productId, product.id))).toHaveLength(1);
  });

  it('refuses anyone but the seller, a listing that is not hidden or is removed, and an empty text', async () => {
    const { product, sellerHeaders, reporterHeaders, reportId, adminHeaders: admin } = await hiddenListing();
    const stranger = await appeal(reporterHeaders, product.id);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe(trustTexts.appealNotYours);
    const empty = await appeal(sellerHeaders, product.id, '  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain(trustTexts.appealTextRequired);

    const visible = await saleOf(t.app, t.db);
    const notHidden = await appeal(visible.sellerHeaders, visible.product.id);
    expect(notHidden.statusCode).toBe(409);
    expect(notHidden.json().message).toBe(trustTexts.appealNotHidden);

    expect((await act(admin, reportId, 'remove')).statusCode).toBe(200);
    const removed = await appeal(sellerHeaders, product.id);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toBe(trustTexts.appealNotHidden);
    const unknown = await appeal(sellerHeaders, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(trustTexts.listingNotFound);
    expect(await t.db.select().from(listingAppeals).where(eq(listingAppeals.productId, product.id))).toEqual([]);
  });
});

describe('POST /api/admin/appeals/{id}/answer', () => {
  it('restore puts the listing back, grants the appeal, tells the seller, and is audited once', async () => {
    const { product, seller, sellerHeaders, adminHeaders: admin } = await hiddenListing();
    const appealId = (await appeal(sellerHeaders, product.id)).json().data.id as string;

    const notAdmin = await answerAppeal(sellerHeaders, appealId, 'restore');
    expect(notAdmin.statusCode).toBe(403);
    expect((await auditEntriesOf(product.id)).map((entry) => entry.action)).toEqual(['report.hide']);

    const response = await answerAppeal(admin, appealId, 'restore', 'The seller sent the receipt');
    expect(response.json()).toEqual({ success: true, message: trustTexts.appealAnswered.restore });
    expect(await publicSearchIds()).toContain(product.id);
    expect(await productRow(t.db, product.id)).toMatchObject({ moderation: null, moderationReason: null, moderatedAt: null });
    const [row] = await t.db.select().from(listingAppeals).where(eq(listingAppeals.id, appealId));
    expect(row).toMatchObject({ status: 'granted', answer: 'The seller sent the receipt' });
    const mail = await mailWithSubject(trustTexts.listingRestoredTitle(product.productName));
    expect(mail.envelope.to).toEqual([seller.email]);
    expect(mail.message.text).toContain(trustTexts.listingRestoredBody('The seller sent the receipt'));
    expect(await auditEntriesOf(product.id)).toEqual([
      expect.objectContaining({ action: 'report.hide' }),
      expect.objectContaining({ action: 'appeal.restore', reason: 'The seller sent the receipt', targetLabel: product.productName }),
    ]);

    const twice = await answerAppeal(admin, appealId, 'keep');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(trustTexts.appealAlreadyAnswered);
    expect(await auditEntriesOf(product.id)).toHaveLength(2);
  });

  it('keep leaves the listing hidden for good: the seller is told and cannot appeal again', async () => {
    const { product, seller, sellerHeaders, adminHeaders: admin } = await hiddenListing();
    const appealId = (await appeal(sellerHeaders, product.id)).json().data.id as string;

    const response = await answerAppeal(admin, appealId, 'keep', 'The photos are a shop’s');
    expect(response.json().message).toBe(trustTexts.appealAnswered.keep);
    expect((await productRow(t.db, product.id)).moderation).toBe('hidden');
    expect(await publicSearchIds()).not.toContain(product.id);
    expect(await myProduct(sellerHeaders, seller.email, product.id)).toMatchObject({
      canAppeal: false,
      appeal: { status: 'refused', answer: 'The photos are a shop’s' },
    });
    const mail = await mailWithSubject(trustTexts.appealKeptTitle(product.productName));
    expect(mail.envelope.to).toEqual([seller.email]);
    expect((await appeal(sellerHeaders, product.id)).json().message).toBe(trustTexts.appealAlreadySent);
    expect((await auditEntriesOf(product.id)).map((entry) => entry.action)).toEqual(['report.hide', 'appeal.keep']);

    expect((await answerAppeal(admin, '00000000-0000-4000-8000-000000000000', 'keep')).statusCode).toBe(404);
  });

  it('of two appeals at once one is filed, and of two answers at once one counts and is audited', async () => {
    const { product, sellerHeaders, adminHeaders: admin } = await hiddenListing();
    const appeals = await Promise.all([appeal(sellerHeaders, product.id), appeal(sellerHeaders, product.id)]);
    expect(appeals.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const appealId = appeals.find((response) => response.statusCode === 201)!.json().data.id as string;

    const answers = await Promise.all([answerAppeal(admin, appealId, 'restore'), answerAppeal(await adminHeaders(), appealId, 'keep')]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const appealEntries = (await auditEntriesOf(product.id)).filter((entry) => entry.action.startsWith('appeal.'));
    expect(appealEntries).toHaveLength(1);
    const [row] = await t.db.select().from(listingAppeals).where(eq(listingAppeals.id, appealId));
    expect(row!.status).toBe(appealEntries[0]!.action === 'appeal.restore' ? 'granted' : 'refused');
  });

  it('restoring the listing through its report grants a pending appeal too', async () => {
    const { product, sellerHeaders, reportId, adminHeaders: admin } = await hiddenListing();
    const appealId = (await appeal(sellerHeaders, product.id)).json().data.id as string;
    expect((await act(admin, reportId, 'restore', 'Fine after all')).statusCode).toBe(200);
    const [row] = await t.db.select().from(listingAppeals).where(eq(listingAppeals.id, appealId));
    expect(row).toMatchObject({ status: 'granted', answer: 'Fine after all' });
    expect((await queue(admin)).map((target) => target.targetId)).not.toContain(product.id);
  });
});

describe('lifting a suspension', () => {
  /** A seller with three listings: one hidden for its own report, one removed, one left alone; then suspended. */
  async function suspendedSeller() {
    const sale = await saleOf(t.app, t.db);
    const headers = await adminHeaders();
    const category = await createCategory(t.db);
    const hiddenForItself = await reportedListing();
    const seller = hiddenForItself.seller;
    expect((await act(headers, hiddenForItself.reportId, 'hide', 'Counterfeit')).statusCode).toBe(200);
    const removed = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const removedReport = await fileReport(sale.buyers[0]!.headers, { targetType: 'product', targetId: removed.id, reason: 'prohibited' });
    expect((await act(headers, removedReport.json().data.id, 'remove', 'Prohibited')).statusCode).toBe(200);
    const untouched = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const booking = await createBooking(t.db, untouched, sale.buyers[0]!.user.id);
    const userReport = await fileReport(sale.buyers[0]!.headers, { targetType: 'user', targetId: seller.id, reason: 'scam' });
    expect((await act(headers, userReport.json().data.id, 'suspend', 'Scams buyers')).statusCode).toBe(200);
    return { seller, headers, hiddenForItself: hiddenForItself.product, removed, untouched, booking, userReportId: userReport.json().data.id as string };
  }

  it('lets the account sign in again and brings back only the listings the suspension hid; bookings stay cancelled', async () => {
    const { seller, headers, hiddenForItself, removed, untouched, booking } = await suspendedSeller();
    expect(await publicSearchIds()).not.toContain(untouched.id);
    expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'declined' });

    const response = await t.app.inject({ method: 'POST', url: `/api/admin/users/${seller.id}/lift-suspension`, headers, payload: { reason: 'Paid the buyers back' } });
    expect(response.json()).toEqual({ success: true, message: trustTexts.suspensionLifted });

    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: seller.email, password: DEFAULT_TEST_PASSWORD } });
    expect(signIn.statusCode).toBe(200);
    const search = await publicSearchIds();
    expect(search).toContain(untouched.id);
    expect(search).not.toContain(hiddenForItself.id);
    expect(search).not.toContain(removed.id);
    expect(await productRow(t.db, hiddenForItself.id)).toMatchObject({ moderation: 'hidden', moderationReason: 'Counterfeit' });
    expect((await productRow(t.db, removed.id)).moderation).toBe('removed');
    expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'declined' });
    expect((await auditEntriesOf(seller.id)).map((entry) => [entry.action, entry.reason])).toEqual([
      ['report.suspend', 'Scams buyers'],
      ['user.lift-suspension', 'Paid the buyers back'],
    ]);

    const again = await t.app.inject({ method: 'POST', url: `/api/admin/users/${seller.id}/lift-suspension`, headers, payload: { reason: 'Twice' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(trustTexts.notSuspended);
    const notAdmin = await t.app.inject({ method: 'POST', url: `/api/admin/users/${seller.id}/lift-suspension`, headers: await bearer(t.app, seller.id), payload: { reason: 'Me' } });
    expect(notAdmin.statusCode).toBe(403);
    expect(await auditEntriesOf(seller.id)).toHaveLength(2);
    const told = await mailWithSubject(trustTexts.accountRestoredTitle, seller.email);
    expect(told.message.text).toContain(trustTexts.accountRestoredBody('Paid the buyers back'));
    expect(smtp.received.filter((mail) => mail.envelope.to.includes(seller.email) && mail.message.subject === trustTexts.accountRestoredTitle)).toHaveLength(1);
  });

  it('restore on the account’s report lifts it too', async () => {
    const { seller, headers, untouched, userReportId } = await suspendedSeller();
    const response = await act(headers, userReportId, 'restore', 'Mistaken identity');
    expect(response.json().message).toBe(trustTexts.moderationDone.restore);
    expect(await publicSearchIds()).toContain(untouched.id);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: seller.email, password: DEFAULT_TEST_PASSWORD } });
    expect(signIn.statusCode).toBe(200);
    expect((await auditEntriesOf(seller.id)).map((entry) => entry.action)).toEqual(['report.suspend', 'report.restore']);
    const told = await mailWithSubject(trustTexts.accountRestoredTitle, seller.email);
    expect(told.message.text).toContain(trustTexts.accountRestoredBody('Mistaken identity'));
  });
});

describe('the queue’s history', () => {
  it('shows a target’s past reports and admin acts, newest first, and lists handled reports under status=closed', async () => {
    const { product, reportId } = await reportedListing();
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const headers = await bearer(t.app, admin.id);
    expect((await act(headers, reportId, 'dismiss', 'Described fairly')).statusCode).toBe(200);
    expect((await queue(headers)).map((target) => target.targetId)).not.toContain(product.id);

    const closed = (await queue(headers, 'closed')).find((target) => target.targetId === product.id)!;
    expect(closed.reports).toEqual([expect.objectContaining({ id: reportId, status: 'dismissed' })]);
    expect(closed.history.actions).toEqual([expect.objectContaining({ action: 'report.dismiss', reason: 'Described fairly' })]);

    // Reported again: the open group carries the dismissed report and the dismissal as history.
    const second = await createUser(t.db, { password: null });
    const again = await fileReport(await bearer(t.app, second.id), { targetType: 'product', targetId: product.id, reason: 'prohibited' });
    expect((await act(headers, again.json().data.id, 'hide', 'Prohibited after all')).statusCode).toBe(200);
    const third = await createUser(t.db, { password: null });
    await fileReport(await bearer(t.app, third.id), { targetType: 'product', targetId: product.id, reason: 'offensive' });

    const open = (await queue(headers)).find((target) => target.targetId === product.id)!;
    expect(open.reports.map((row) => row.reason)).toEqual(['offensive']);
    expect(open.history.reports.map((row) => [row.reason, row.status])).toEqual([
      ['prohibited', 'actioned'],
      ['scam', 'dismissed'],
    ]);
    expect(open.history.actions.map((entry) => [entry.action, entry.reason, entry.actorEmail])).toEqual([
      ['report.hide', 'Prohibited after all', admin.email],
      ['report.dismiss', 'Described fairly', admin.email],
    ]);

    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/reports?status=old', headers });
    expect(bad.statusCode).toBe(400);
  });
});

describe('offers on a moderated listing', () => {
  it('hiding a listing closes its open offers, tells both sides, and refuses new ones', async () => {
    const { product, seller, reportId } = await reportedListing();
    const offer = await openOfferOn(product.id);
    expect((await act(await adminHeaders(), reportId, 'hide', 'Counterfeit')).statusCode).toBe(200);

    const [closedOffer] = await t.db.execute<{ status: string }>(sql`select status from offers where id = ${offer.offerId}`).then((result) => result.rows);
    expect(closedOffer!.status).toBe('declined');
    const text = notificationTexts.offerClosed('$90.00', product.productName);
    expect(await notificationTextsOf(offer.buyer.id)).toContain(text);
    expect(await notificationTextsOf(seller.id)).toContain(text);
    const again = await makeOffer(t.app, offer.buyerHeaders, offer.conversationId, 80);
    expect(again.statusCode).toBe(409);
  });

  it('suspending a seller closes the open offers on every listing of theirs', async () => {
    const { product, seller } = await reportedListing();
    const category = await createCategory(t.db);
    const other = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const first = await openOfferOn(product.id);
    const second = await openOfferOn(other.id);
    const filed = await fileReport(first.buyerHeaders, { targetType: 'user', targetId: seller.id, reason: 'scam' });
    expect((await act(await adminHeaders(), filed.json().data.id, 'suspend', 'Scams buyers')).statusCode).toBe(200);

    const { rows } = await t.db.execute<{ status: string }>(sql`select status from offers where id in (${first.offerId}, ${second.offerId})`);
    expect(rows.map((row) => row.status)).toEqual(['declined', 'declined']);
    expect(await notificationTextsOf(second.buyer.id)).toContain(notificationTexts.offerClosed('$90.00', other.productName));
  });
});
