import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import { notifications, payouts, simulatedPayouts } from '../db/schema/index.ts';
import { balancesOf, ledgerTotals } from '../ledger/ledger.ts';
import { releasedSaleOf } from '../../test/sale-fixtures.ts';
import { createSimulatedPayoutProvider, PayoutRefusedError } from './payout-provider.ts';
import { payOutEveryBalance, requestPayout, retryPendingPayouts } from './payouts.ts';

/** Payouts of sellers' available money (decision 34), through the simulated payout provider. */

const t = setupTestApp();

const newSeller = () => createUser(t.db, { role: 'seller', verified: true });
const payOutNow = async (sellerId: string) => t.app.inject({ method: 'POST', url: '/api/me/payouts', headers: await bearer(t.app, sellerId) });
const simulatedPayoutsTo = (sellerId: string) => t.db.select().from(simulatedPayouts).where(eq(simulatedPayouts.destination, sellerId));

describe('payouts', () => {
  it('pays out the whole available balance on request, records the reference and tells the seller', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    const response = await payOutNow(seller.id);
    expect(response.statusCode).toBe(201);
    const made = response.json().data;
    expect(made).toMatchObject({ amountCents: 13_500, status: 'paid', provider: 'simulated', reference: expect.stringMatching(/^po_sim_/) });
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 13_500 });
    const [simulated] = await simulatedPayoutsTo(seller.id);
    expect(simulated).toMatchObject({ id: made.reference, amountCents: 13_500, idempotencyKey: `payout:${made._id}` });

    const listed = await t.app.inject({ method: 'GET', url: '/api/me/payouts', headers: await bearer(t.app, seller.id) });
    expect(listed.json().data).toEqual([made]);
    const told = await t.db.select().from(notifications).where(eq(notifications.userId, seller.id));
    expect(told.map((notice) => notice.kind)).toContain('payout-paid');

    const again = await payOutNow(seller.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ledgerMessages.nothingToPayOut);
  });

  it('makes one payout when two requests race', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '200.00' });
    const answers = await Promise.all([payOutNow(seller.id), payOutNow(seller.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await simulatedPayoutsTo(seller.id)).toHaveLength(1);
    expect(await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id))).toHaveLength(1);
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 18_000 });
  });

  it('pays once when the app process is killed between the provider’s answer and the record, and the retry records it', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    const child = promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'payout-crash-child.ts')], {
      env: { ...process.env, DATABASE_URL: t.database.url, SELLER_ID: seller.id },
    });
    const killed = await child.then(
      () => undefined,
      (error: { signal?: string }) => error.signal,
    );
    expect(killed).toBe('SIGKILL');

    // The provider paid; the app never wrote it down. The money has left the balance, once.
    const [pending] = await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id));
    expect(pending).toMatchObject({ status: 'pending', reference: null, amountCents: 13_500 });
    const [paidByProvider] = await simulatedPayoutsTo(seller.id);
    expect(paidByProvider).toBeDefined();
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 13_500 });
    expect((await payOutNow(seller.id)).statusCode).toBe(409);

    await retryPendingPayouts({ db: t.db, provider: t.app.payouts }, 0);
    const [recorded] = await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id));
    expect(recorded).toMatchObject({ status: 'paid', reference: paidByProvider!.id });
    expect(await simulatedPayoutsTo(seller.id)).toHaveLength(1);
  });

  it('nets a refund taken after the release against the next payout', async () => {
    const seller = await newSeller();
    const first = await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    expect((await payOutNow(seller.id)).json().data.amountCents).toBe(13_500);
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '300.00' });

    // The first buyer reports a problem after the release, and an admin refunds it.
    const reported = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${first.booking.id}/problem`,
      headers: first.buyerHeaders,
      payload: { reason: 'not-as-described', note: 'It is a different chair.' },
    });
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/problems/${reported.json().data._id}/refund`,
      headers: await bearer(t.app, admin.id),
    });
    expect(refunded.statusCode).toBe(200);
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 27_000 - 13_500, paidOutCents: 13_500 });

    expect((await payOutNow(seller.id)).json().data.amountCents).toBe(13_500);
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 27_000 });
    expect((await ledgerTotals(t.db)).sumCents).toBe(0);
  });

  it('puts the money back in the balance when the provider refuses a payout', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '100.00' });
    const refusing = { ...createSimulatedPayoutProvider(t.db), payout: async () => Promise.reject(new PayoutRefusedError('The bank account was closed.')) };
    const failed = await requestPayout({ db: t.db, provider: refusing }, seller.id);
    expect(failed).toMatchObject({ status: 'failed', failure: 'The bank account was closed.' });
    expect(await balancesOf(t.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 9_000, paidOutCents: 0 });
  });

  it('pays every seller with money available on the schedule, and nobody else', async () => {
    const sellers = [await newSeller(), await newSeller()];
    for (const seller of sellers) await releasedSaleOf(t.app, t.db, { seller, resalePrice: '50.00' });
    const made = await payOutEveryBalance({ db: t.db, provider: createSimulatedPayoutProvider(t.db) });
    for (const seller of sellers) expect(made.filter((payout) => payout.sellerId === seller.id)).toHaveLength(1);
    expect(made.every((payout) => payout.status === 'paid' && payout.amountCents > 0)).toBe(true);
    expect(await payOutEveryBalance({ db: t.db, provider: createSimulatedPayoutProvider(t.db) })).toEqual([]);
  });
});
