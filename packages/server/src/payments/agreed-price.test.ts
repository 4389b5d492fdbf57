import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentMessages } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { simulatedPaymentIntents } from '../db/schema/index.ts';
import { answer, makeOffer, productAndBuyer, startThread } from '../../test/conversation-fixtures.ts';
import { bookingRow, bookingStep, productRow } from '../../test/sale-fixtures.ts';
import { card, confirmCard, createIntent, payByCard, paymentOf, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import type { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

type Headers = Record<string, string>;

async function book(headers: Headers, productId: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/addBooking',
    headers,
    payload: { productId, phoneNumber: '01712345678', location: 'Gulshan' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data._id as string;
}

async function editPrice(headers: Headers, productId: string, resalePrice: number) {
  const response = await t.app.inject({ method: 'PATCH', url: `/api/products/${productId}`, headers, payload: { resalePrice } });
  expect(response.statusCode).toBe(200);
}

/** The seller accepts the buyer's offer of `amount` in a new thread; answers the booking it made. */
async function acceptedOffer(world: Awaited<ReturnType<typeof productAndBuyer>>, amount: number): Promise<string> {
  const conversationId = await startThread(t.app, world.buyerHeaders, world.product.id);
  const offer = await makeOffer(t.app, world.buyerHeaders, conversationId, amount);
  const accepted = await answer(t.app, world.sellerHeaders, offer.json().data._id, 'accept');
  expect(accepted.statusCode).toBe(200);
  return accepted.json().data.bookingId as string;
}

async function intentAmount(transactionId: string) {
  const [intent] = await t.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, transactionId));
  return intent!.amountCents;
}

describe('one price per booking, fixed when it is made', () => {
  it('a price raised after the seller accepted leaves the buyer paying the price they booked at', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '100.00' });
    const bookingId = await book(world.buyerHeaders, world.product.id);
    expect((await bookingStep(t.app, world.sellerHeaders, bookingId, 'accept')).statusCode).toBe(200);
    await editPrice(world.sellerHeaders, world.product.id, 9000);

    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    expect(await intentAmount(transactionId)).toBe(10_000);
    const paid = await postPayment(t.app, world.buyerHeaders, { transactionId, productId: world.product.id, bookingId });
    expect(paid.statusCode).toBe(200);
    expect((await paymentsOfProduct(t.db, world.product.id)).map((payment) => payment.amountCents)).toEqual([10_000]);
    expect(await bookingRow(t.db, bookingId)).toMatchObject({ productPrice: '100.00', agreedPriceCents: 10_000, status: 'paid' });
  });

  it('a price lowered after booking leaves an open booking at its price too', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '100.00' });
    const bookingId = await book(world.buyerHeaders, world.product.id);
    await editPrice(world.sellerHeaders, world.product.id, 60);
    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    expect(await intentAmount(transactionId)).toBe(10_000);
  });

  it('an intent made before the booking’s price changed is refused before the card is charged', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '150.00' });
    const bookingId = await book(world.buyerHeaders, world.product.id);
    const before = await createIntent(t.app, world.buyerHeaders, bookingId);
    const oldSecret: string = before.json().clientSecret;
    // The seller accepts a lower offer: the same booking now has another price.
    expect(await acceptedOffer(world, 100)).toBe(bookingId);

    const refused = await confirmCard(t.app, world.buyerHeaders, oldSecret);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({ message: paymentMessages.priceChanged(10_000), code: 'amount_mismatch' });
    const [oldIntent] = await t.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, oldSecret.split('_secret_')[0]!));
    expect(oldIntent!.status).toBe('requires_payment_method');

    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    expect(await intentAmount(transactionId)).toBe(10_000);
    expect((await postPayment(t.app, world.buyerHeaders, { transactionId, productId: world.product.id, bookingId })).statusCode).toBe(200);
  });

  it('a charge of an amount that no longer matches its booking makes no sale and is refunded', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '150.00' });
    const bookingId = await book(world.buyerHeaders, world.product.id);
    // As with Stripe, where the browser confirms the card with the provider: an intent at the old price is charged anyway.
    const provider = t.app.payments as SimulatedPaymentProvider;
    const created = await provider.createIntent({
      amountCents: 15_000,
      currency: 'usd',
      metadata: { bookingId, productId: world.product.id, buyerId: world.buyer.id },
      idempotencyKey: `old-price:${bookingId}`,
    });
    await acceptedOffer(world, 100);
    expect((await provider.confirm(created.clientSecret, card())).ok).toBe(true);

    const answered = await postPayment(t.app, world.buyerHeaders, { transactionId: created.id, productId: world.product.id, bookingId });
    expect(answered.statusCode).toBe(409);
    expect(answered.json().message).toBe(paymentMessages.refunded['price-changed'](15_000));
    expect(await paymentOf(t.db, 'simulated', created.id)).toMatchObject({ status: 'refunded', amountCents: 15_000 });
    expect(await bookingRow(t.db, bookingId)).toMatchObject({ status: 'accepted', paymentStatus: 'unpaid' });
    expect(await productRow(t.db, world.product.id)).toMatchObject({ state: 'reserved' });
  });

  it('an accepted offer’s price ends with its booking: booking again after a price rise pays the new price', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '100.00' });
    const offerBooking = await acceptedOffer(world, 10);
    expect(await bookingRow(t.db, offerBooking)).toMatchObject({ agreedPriceCents: 1_000, status: 'accepted' });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${offerBooking}`, headers: world.buyerHeaders });
    expect(deleted.statusCode).toBe(200);
    await editPrice(world.sellerHeaders, world.product.id, 500);

    const bookingId = await book(world.buyerHeaders, world.product.id);
    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    expect(await intentAmount(transactionId)).toBe(50_000);
    expect((await postPayment(t.app, world.buyerHeaders, { transactionId, productId: world.product.id, bookingId })).statusCode).toBe(200);
    expect((await paymentsOfProduct(t.db, world.product.id)).map((payment) => payment.amountCents)).toEqual([50_000]);
  });
});
