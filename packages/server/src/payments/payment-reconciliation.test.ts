import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { bookingRow } from '../../test/sale-fixtures.ts';
import { bookedProduct, card, confirmCard, createIntent, payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { RECONCILE_DELAYS_MS, reconcileKeyOf } from './payment-reconciliation.ts';
import type { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

/** The intent's waiting check, if there is one. */
async function waitingCheck(intentId: string) {
  const { rows } = await t.db.execute<{ id: string; payload: { intentId: string; round: number } }>(
    sql`select id::text, payload from graphile_worker._private_jobs where key = ${reconcileKeyOf('simulated', intentId)} and locked_at is null`,
  );
  return rows[0];
}

/** Moves the job clock to the intent's next check and waits until that check has run. */
async function runCheck(intentId: string, ms: number) {
  const { id } = (await waitingCheck(intentId))!;
  const done = nextOutcome(t.app, (outcome) => outcome.id === id);
  await advanceJobClock(t.db, ms);
  expect((await done).status).toBe('succeeded');
}

/** A booked product, and the buyer's intent for it as create-payment-intent answers it. */
async function handedOutIntent() {
  const { product, buyers } = await bookedProduct(t.db, { resalePrice: '150.00' });
  const { user, booking } = buyers[0]!;
  const headers = await bearer(t.app, user.id);
  const created = await createIntent(t.app, headers, booking.id);
  const clientSecret: string = created.json().clientSecret;
  return { product, booking, headers, clientSecret, intentId: clientSecret.split('_secret_')[0]! };
}

describe('the server records every payment', () => {
  it('the simulated confirm call records the payment on the server; posting it after, twice, is safe', async () => {
    const { product, buyers } = await bookedProduct(t.db);
    const { user, booking } = buyers[0]!;
    const headers = await bearer(t.app, user.id);
    const { transactionId, clientSecret, confirmed } = await payByCard(t.app, headers, booking.id);
    expect(confirmed.statusCode).toBe(200);
    // Nothing was posted, and the booking is paid.
    expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    expect(await paymentsOfProduct(t.db, product.id)).toEqual([expect.objectContaining({ transactionId, amountCents: 15_000, status: 'succeeded' })]);

    for (let i = 0; i < 2; i++) {
      const posted = await postPayment(t.app, headers, { transactionId, productId: product.id, bookingId: booking.id });
      expect(posted.json()).toEqual({ success: true, message: paymentMessages.recorded });
    }
    expect((await confirmCard(t.app, headers, clientSecret)).statusCode).toBe(400);
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(1);
  });

  it('a charge whose record never arrived is fulfilled by the intent check a few minutes later', async () => {
    const { product, booking, headers, clientSecret, intentId } = await handedOutIntent();
    expect((await waitingCheck(intentId))?.payload).toEqual({ intentId, round: 0 });
    // The card is charged at the provider, and then the connection drops: nobody tells the server.
    expect((await (t.app.payments as SimulatedPaymentProvider).confirm(clientSecret, card())).ok).toBe(true);
    expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'open' });

    await runCheck(intentId, RECONCILE_DELAYS_MS[0]);
    expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    expect(await paymentsOfProduct(t.db, product.id)).toEqual([expect.objectContaining({ transactionId: intentId, amountCents: 15_000, status: 'succeeded' })]);
    expect(await waitingCheck(intentId)).toBeUndefined();

    // The browser's late post answers the same, and records nothing twice.
    const late = await postPayment(t.app, headers, { transactionId: intentId, productId: product.id, bookingId: booking.id });
    expect(late.json()).toEqual({ success: true, message: paymentMessages.recorded });
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(1);
  });

  it('an intent not paid yet is asked about again later; one that can no longer pay its booking is released', async () => {
    const { booking, headers, intentId } = await handedOutIntent();
    await runCheck(intentId, RECONCILE_DELAYS_MS[0]);
    expect((await waitingCheck(intentId))?.payload).toEqual({ intentId, round: 1 });

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booking.id}`, headers });
    expect(deleted.statusCode).toBe(200);
    await runCheck(intentId, RECONCILE_DELAYS_MS[1]);
    expect(await waitingCheck(intentId)).toBeUndefined();
  });
});
