import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustTexts, type ModerationAction } from '@furniture/contract';
import type { Config } from '../config.ts';
import { bearer, setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { createBooking, createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../db/factories.ts';
import { auditLog, liveEvents, refreshTokens, reports } from '../db/schema/index.ts';
import { payByCard, paymentsOfProduct, postPayment } from '../payments/payment-fixtures.ts';
import { bookingRow, productRow, saleOf } from '../sales/sale-fixtures.ts';

let smtp: TestSmtpServer;
const overrides: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  overrides.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp.close());

const t = setupTestApp(overrides);

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
  return t.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
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
    const mail = smtp.nextMail();

    const response = await act(await adminHeaders(), reportId, 'hide', 'Looks like a counterfeit');
    expect(response.json().message).toBe(trustTexts.moderationDone.hide);

    expect(await publicSearchIds()).not.toContain(product.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(404);
    expect(await productRow(t.db, product.id)).toMatchObject({ moderation: 'hidden', moderationReason: 'Looks like a counterfeit', reported: false });
    expect(await bookingRow(t.db, buyers[0]!.booking.id)).toMatchObject({ status: 'declined', statusReason: 'Looks like a counterfeit' });
    const wish = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: buyers[0]!.headers, payload: { productId: product.id } });
    expect(wish.statusCode).toBe(404);

    const events = await t.db.select().from(liveEvents).where(and(eq(liveEvents.userId, seller.id), eq(liveEvents.type, 'listing.moderated')));
    expect(events.map((event) => event.data)).toEqual([
      { productId: product.id, productName: product.productName, moderation: 'hidden', reason: 'Looks like a counterfeit' },
    ]);
    const received = await mail;
    expect(received.envelope.to).toEqual([seller.email]);
    expect(received.message.subject).toBe(trustTexts.listingHiddenTitle(product.productName));
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
