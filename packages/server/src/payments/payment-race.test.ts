import { paymentMessages } from '@furniture/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { bookings, products, simulatedPaymentIntents } from '../db/schema/index.ts';
import { bookedProduct, chargeAtProvider, confirmCard, createIntent, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';

/**
 * Fifty buyers who booked the same product pay for it at the same moment, through two app
 * servers that share one PostgreSQL database, each with its own connection pool.
 */

const BUYERS = 50;
const PRICE_CENTS = 15_000;

const t = setupTestApp();
let servers: [App, App];
let closeSecond: () => Promise<void>;

beforeAll(async () => {
  const { db, pool } = createDatabase(t.database.url, 5);
  const second = await buildApp({ config: t.config, db });
  await second.ready();
  servers = [t.app, second];
  closeSecond = async () => {
    await second.close();
    await pool.end();
  };
});
afterAll(async () => {
  await closeSecond?.();
});

const serverFor = (i: number) => servers[i % 2]!;
const otherServerFor = (i: number) => servers[(i + 1) % 2]!;

async function race() {
  const booked = await bookedProduct(t.db, { buyerCount: BUYERS, resalePrice: '150.00' });
  const buyers = await Promise.all(
    booked.buyers.map(async ({ user, booking }) => ({ user, booking, headers: await bearer(t.app, user.id) })),
  );
  return { product: booked.product, buyers };
}

/** Where money and stock stand for a product after the race. */
async function ledgerOf(productId: string) {
  const rows = await paymentsOfProduct(t.db, productId);
  const captured = await t.db
    .select()
    .from(simulatedPaymentIntents)
    .where(sql`${simulatedPaymentIntents.metadata}->>'productId' = ${productId} and ${simulatedPaymentIntents.status} = 'succeeded'`);
  const [product] = await t.db.select().from(products).where(eq(products.id, productId));
  const paidBookings = await t.db
    .select()
    .from(bookings)
    .where(sql`${bookings.productId} = ${productId} and ${bookings.paymentStatus} = 'paid'`);
  return { rows, captured, product: product!, paidBookings };
}

/**
 * The books balance: every captured payment is recorded exactly once and is either the one sale
 * or refunded (by the provider too), and the money kept is the price of one product.
 */
function expectBalanced(ledger: Awaited<ReturnType<typeof ledgerOf>>, winnerBookingId: string) {
  const { rows, captured, product, paidBookings } = ledger;
  expect(product.inStock).toBe('sold');
  expect(paidBookings.map((b) => b.id)).toEqual([winnerBookingId]);

  const sales = rows.filter((row) => row.status === 'succeeded');
  const refunds = rows.filter((row) => row.status === 'refunded');
  expect(sales).toHaveLength(1);
  expect(sales[0]!.bookingId).toBe(winnerBookingId);
  expect(refunds).toHaveLength(rows.length - 1);

  expect(rows.map((row) => row.transactionId).sort()).toEqual(captured.map((intent) => intent.id).sort());
  for (const intent of captured) {
    const row = rows.find((r) => r.transactionId === intent.id)!;
    if (row.status === 'succeeded') expect(intent.refundId).toBeNull();
    else expect(row.refundId).toBe(intent.refundId);
  }
  const kept = captured.reduce((sum, intent) => sum + intent.amountCents, 0) - refunds.reduce((sum, row) => sum + row.amountCents, 0);
  expect(kept).toBe(PRICE_CENTS);
}

describe(`${BUYERS} buyers pay for the same product at once, on two app servers`, () => {
  it.each([1, 2, 3])('all cards charged first, then all payments posted together: one sale, the rest refunded (round %i)', async () => {
    const { product, buyers } = await race();

    const charged = await Promise.all(
      buyers.map(async ({ booking, headers }, i) => {
        // At the provider only, as Stripe.js charges a card with Stripe: the server hears of it from the posts.
        const { transactionId } = await chargeAtProvider(serverFor(i), headers, booking.id);
        return transactionId;
      }),
    );

    const answers = await Promise.all(
      buyers.map(({ headers }, i) => postPayment(serverFor(i), headers, { transactionId: charged[i]!, productId: product.id })),
    );

    const winners = answers.map((answer, i) => ({ answer, i })).filter(({ answer }) => answer.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.answer.json()).toEqual({ success: true, message: paymentMessages.recorded });
    const losers = answers.filter((answer) => answer.statusCode !== 200);
    expect(losers).toHaveLength(BUYERS - 1);
    for (const answer of losers) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ success: false, message: paymentMessages.refunded['product-sold'](PRICE_CENTS) });
    }

    const ledger = await ledgerOf(product.id);
    expect(ledger.captured).toHaveLength(BUYERS);
    expectBalanced(ledger, buyers[winners[0]!.i]!.booking.id);
  });

  it.each([1, 2, 3])('each buyer pays straight through: one sale, the rest refused before charging or refunded (round %i)', async () => {
    const { product, buyers } = await race();

    const outcomes = await Promise.all(
      buyers.map(async ({ booking, headers }, i) => {
        const intent = await createIntent(serverFor(i), headers, booking.id);
        if (intent.statusCode !== 200) return { stage: 'intent', answer: intent };
        const confirmed = await confirmCard(otherServerFor(i), headers, intent.json().clientSecret);
        if (confirmed.statusCode !== 200) return { stage: 'card', answer: confirmed };
        const paid = await postPayment(serverFor(i + 1), headers, { transactionId: confirmed.json().paymentIntent.id, productId: product.id });
        return { stage: 'payment', answer: paid };
      }),
    );

    const sales = outcomes.map((o, i) => ({ ...o, i })).filter((o) => o.stage === 'payment' && o.answer.statusCode === 200);
    expect(sales).toHaveLength(1);
    const others = outcomes.filter((o) => !(o.stage === 'payment' && o.answer.statusCode === 200));
    expect(others).toHaveLength(BUYERS - 1);
    for (const { stage, answer } of others) {
      expect(answer.statusCode).toBe(409);
      const message = stage === 'card' ? answer.json().error.message : answer.json().message;
      if (stage === 'payment') expect(message).toBe(paymentMessages.refunded['product-sold'](PRICE_CENTS));
      else expect(message).toBe(paymentMessages.productSold);
    }

    expectBalanced(await ledgerOf(product.id), buyers[sales[0]!.i]!.booking.id);
  });
});
