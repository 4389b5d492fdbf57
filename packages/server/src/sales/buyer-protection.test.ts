import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerMessages, saleMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import { auditLog, notifications, payments, saleFunds } from '../db/schema/index.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { balancesOf, ledgerTotals, recordPayout } from '../ledger/ledger.ts';
import { payByCard, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow, bookingStep, productRow, saleOf } from '../../test/sale-fixtures.ts';

/**
 * Buyer protection (decision 33): a paid sale's money is held, and released by the buyer's word,
 * by time after the handover, or by an admin once the buyer reported a problem.
 */

const t = setupTestApp({ releaseAfterHours: 48 });
const HOUR = 60 * 60 * 1000;

/** A $150 sale (fee $15 at the default 10%), paid by card. */
async function paidSale() {
  const sale = await saleOf(t.app, t.db, { resalePrice: '150.00' });
  const { booking, headers } = sale.buyers[0]!;
  const { transactionId } = await payByCard(t.app, headers, booking.id);
  expect((await postPayment(t.app, headers, { transactionId, productId: sale.product.id, bookingId: booking.id })).statusCode).toBe(200);
  return { ...sale, booking, buyerHeaders: headers };
}

async function fundsOf(bookingId: string) {
  const [row] = await t.db.select().from(saleFunds).where(eq(saleFunds.bookingId, bookingId));
  return row;
}

const admin = async () => bearer(t.app, (await createUser(t.db, { role: 'admin', password: null })).id);

async function reportProblem(sale: Awaited<ReturnType<typeof paidSale>>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/bookings/${sale.booking.id}/problem`,
    headers: sale.buyerHeaders,
    payload: { reason: 'damaged', note: 'One leg is broken.' },
  });
}

describe('buyer protection', () => {
  it('fixes the fee on the booking when it is made, and holds the paid money for the seller', async () => {
    const sale = await paidSale();
    expect(await bookingRow(t.db, sale.booking.id)).toMatchObject({ feeCents: 1_500 });
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'held', amountCents: 15_000, feeCents: 1_500, releaseAt: null });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 13_500, availableCents: 0, paidOutCents: 0 });
  });

  it('releases the money when the buyer confirms receipt, and tells the seller', async () => {
    const sale = await paidSale();
    expect((await bookingStep(t.app, sale.buyerHeaders, sale.booking.id, 'received')).statusCode).toBe(200);
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'released' });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 0, availableCents: 13_500, paidOutCents: 0 });
    const told = await t.db.select().from(notifications).where(eq(notifications.userId, sale.seller.id));
    expect(told.map((notice) => notice.kind)).toContain('funds-released');
    expect((await ledgerTotals(t.db)).sumCents).toBe(0);
  });

  it('releases the money RELEASE_AFTER_HOURS after the handover, not before', async () => {
    const sale = await paidSale();
    const before = Date.now();
    expect((await bookingStep(t.app, sale.sellerHeaders, sale.booking.id, 'handover')).json().message).toBe(saleMessages.handedOver);
    const held = await fundsOf(sale.booking.id);
    expect(held!.releaseAt!.getTime()).toBeGreaterThanOrEqual(before + 48 * HOUR);

    // 47 hours later the job is not yet due.
    await advanceJobClock(t.db, 47 * HOUR);
    const { rows } = await t.db.execute<{ due: boolean }>(
      sql`select run_at <= now() as due from graphile_worker.jobs where key = ${`release-funds:${sale.booking.id}`}`,
    );
    expect(rows[0]!.due).toBe(false);
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'held' });

    const released = nextOutcome(t.app, (outcome) => outcome.task === 'sales.release-funds' && outcome.status === 'succeeded');
    await advanceJobClock(t.db, 1 * HOUR);
    await released;
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'released' });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 0, availableCents: 13_500, paidOutCents: 0 });
  });

  it('freezes the money when the buyer reports a problem before the release date; the release job then leaves it', async () => {
    const sale = await paidSale();
    await bookingStep(t.app, sale.sellerHeaders, sale.booking.id, 'handover');
    const reported = await reportProblem(sale);
    expect(reported.statusCode).toBe(201);
    expect(reported.json()).toMatchObject({ success: true, message: ledgerMessages.problemReported, data: { _id: expect.any(String) } });
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'frozen' });

    const again = await reportProblem(sale);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ledgerMessages.problemAlreadyOpen);
    const received = await bookingStep(t.app, sale.buyerHeaders, sale.booking.id, 'received');
    expect(received.statusCode).toBe(409);
    expect(received.json().message).toBe(ledgerMessages.receivedNotHeld);

    const ran = nextOutcome(t.app, (outcome) => outcome.task === 'sales.release-funds' && outcome.status === 'succeeded');
    await advanceJobClock(t.db, 49 * HOUR);
    await ran;
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'frozen' });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 13_500, availableCents: 0, paidOutCents: 0 });
  });

  it('lets an admin release a frozen sale’s money to the seller, once, and records it in the audit log', async () => {
    const sale = await paidSale();
    const problemId = (await reportProblem(sale)).json().data._id as string;
    const headers = await admin();
    const released = await t.app.inject({ method: 'POST', url: `/api/admin/problems/${problemId}/release`, headers });
    expect(released.json()).toEqual({ success: true, message: ledgerMessages.problemReleased });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 0, availableCents: 13_500, paidOutCents: 0 });
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/problems/${problemId}/refund`, headers })).statusCode).toBe(404);
    const acts = await t.db.select().from(auditLog).where(eq(auditLog.targetId, sale.booking.id));
    expect(acts.map((act) => act.action)).toEqual(['problem.release']);
  });

  it('refuses the seller’s handover while a reported problem keeps the money frozen, and leaves the sale as it was', async () => {
    const sale = await paidSale();
    await reportProblem(sale);
    const handover = await bookingStep(t.app, sale.sellerHeaders, sale.booking.id, 'handover');
    expect(handover.statusCode).toBe(409);
    expect(handover.json().message).toBe(ledgerMessages.handoverFrozen);
    expect(await bookingRow(t.db, sale.booking.id)).toMatchObject({ status: 'paid' });
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'frozen', releaseAt: null });
  });

  it('lets an admin refund a frozen sale: the buyer is refunded from the held money and the piece is back on sale', async () => {
    const sale = await paidSale();
    const problemId = (await reportProblem(sale)).json().data._id as string;
    const refunded = await t.app.inject({ method: 'POST', url: `/api/admin/problems/${problemId}/refund`, headers: await admin() });
    expect(refunded.json()).toEqual({ success: true, message: ledgerMessages.problemRefunded });
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'refunded' });
    expect(await bookingRow(t.db, sale.booking.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available' });
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, sale.booking.id));
    expect(payment).toMatchObject({ status: 'refunded', refundId: expect.any(String) });
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 0 });
  });

  it('refunds after the release from the seller’s available balance, which may go negative', async () => {
    const sale = await paidSale();
    await bookingStep(t.app, sale.sellerHeaders, sale.booking.id, 'handover');
    await bookingStep(t.app, sale.buyerHeaders, sale.booking.id, 'received');
    // The seller's money was paid out meanwhile: the refund leaves their balance below zero.
    await t.db.transaction((tx) => recordPayout(tx, { payoutId: randomUUID(), sellerId: sale.seller.id, amountCents: 13_500 }));
    const problemId = (await reportProblem(sale)).json().data._id as string;
    expect(await fundsOf(sale.booking.id)).toMatchObject({ state: 'released' });
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/problems/${problemId}/refund`, headers: await admin() })).statusCode).toBe(200);
    expect(await balancesOf(t.db, sale.seller.id)).toEqual({ pendingCents: 0, availableCents: -13_500, paidOutCents: 13_500 });
    // A handed-over piece stays sold: it is with the buyer.
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'sold' });
    expect((await ledgerTotals(t.db)).sumCents).toBe(0);
  });

  it('shows both sides the protection and its release date, and My Orders the changes nobody makes to the booking', async () => {
    const sale = await paidSale();
    const protectionOf = async () => {
      const orders = await t.app.inject({ method: 'GET', url: `/api/booking?email=${sale.buyers[0]!.user.email}`, headers: sale.buyerHeaders });
      const seen = await t.app.inject({ method: 'GET', url: '/api/seller/bookings', headers: sale.sellerHeaders });
      const pick = ({ fundsState, releaseAt, problemOpen }: { fundsState: string; releaseAt: string | null; problemOpen: boolean }) => ({ fundsState, releaseAt, problemOpen });
      const buyerSide = pick(orders.json().data[0]);
      expect(pick(seen.json().data[0])).toEqual(buyerSide);
      return buyerSide;
    };
    expect(await protectionOf()).toEqual({ fundsState: 'held', releaseAt: null, problemOpen: false });

    await bookingStep(t.app, sale.sellerHeaders, sale.booking.id, 'handover');
    const releaseAt = (await fundsOf(sale.booking.id))!.releaseAt!.toISOString();
    expect(await protectionOf()).toEqual({ fundsState: 'held', releaseAt, problemOpen: false });

    // The release job changes only the sale's funds: the buyer's list, read before, shows it all the same.
    await advanceJobClock(t.db, 49 * HOUR);
    // Other tests' release jobs run too: wait for this sale's.
    await expect.poll(async () => (await fundsOf(sale.booking.id))!.state).toBe('released');
    expect(await protectionOf()).toEqual({ fundsState: 'released', releaseAt, problemOpen: false });

    // So does a report on money already released.
    expect((await reportProblem(sale)).statusCode).toBe(201);
    expect(await protectionOf()).toEqual({ fundsState: 'released', releaseAt, problemOpen: true });
  });

  it('refuses a problem report on an unpaid booking, and from anyone but its buyer', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking, headers } = sale.buyers[0]!;
    const unpaid = await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/problem`, headers, payload: { reason: 'other', note: 'x' } });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().message).toBe(ledgerMessages.problemNotPossible);
    const paid = await paidSale();
    const stranger = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${paid.booking.id}/problem`,
      headers,
      payload: { reason: 'other', note: 'x' },
    });
    expect(stranger.statusCode).toBe(404);
    const empty = await t.app.inject({ method: 'POST', url: `/api/bookings/${paid.booking.id}/problem`, headers: paid.buyerHeaders, payload: { reason: 'other', note: ' ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/describe the problem/);
  });
});
