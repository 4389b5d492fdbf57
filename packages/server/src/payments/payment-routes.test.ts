import { paymentMessages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createUser, createWish } from '../demo/factories.ts';
import { products, simulatedPaymentIntents } from '../db/schema/index.ts';
import { bookedProduct, card, cards, chargeAtProvider, confirmCard, createIntent, payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import type { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

describe('POST /api/create-payment-intent', () => {
  it("charges the product's price from the database in US cents, whatever the request says", async () => {
    const { product, buyers } = await bookedProduct(t.db, { resalePrice: '249.99' });
    const { user, booking } = buyers[0]!;
    const response = await createIntent(t.app, await bearer(t.app, user.id), booking.id);
    expect(response.statusCode).toBe(200);
    const { clientSecret } = response.json();
    expect(response.json()).toEqual({ success: true, clientSecret: expect.stringMatching(/^pi_sim_\w+_secret_\w+$/) });

    const intent = await t.app.payments.retrieveIntent(clientSecret.split('_secret_')[0]);
    expect(intent).toMatchObject({
      amountCents: 24_999,
      currency: 'usd',
      metadata: { bookingId: booking.id, productId: product.id, buyerId: user.id },
    });
  });

  it('answers the same intent when asked again for the same booking', async () => {
    const { buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const first = await createIntent(t.app, headers, buyers[0]!.booking.id);
    const second = await createIntent(t.app, headers, buyers[0]!.booking.id);
    expect(second.json().clientSecret).toBe(first.json().clientSecret);
  });

  it("works only for the booking's own buyer", async () => {
    const { buyers } = await bookedProduct(t.db);
    const stranger = await createUser(t.db, { role: 'buyer' });
    // A seller buys too: to them as to any other buyer, someone else's booking does not exist.
    const seller = await createUser(t.db, { role: 'seller' });
    const admin = await createUser(t.db, { role: 'admin' });
    for (const other of [stranger, seller]) {
      const answer = await createIntent(t.app, await bearer(t.app, other.id), buyers[0]!.booking.id);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ success: false, message: paymentMessages.bookingNotFound });
    }
    expect((await createIntent(t.app, await bearer(t.app, admin.id), buyers[0]!.booking.id)).statusCode).toBe(403);
    expect((await createIntent(t.app, {}, buyers[0]!.booking.id)).statusCode).toBe(401);
  });

  it('refuses a product that is already sold, before any card is charged', async () => {
    const { product, buyers } = await bookedProduct(t.db);
    await t.db.update(products).set({ inStock: 'sold', state: 'sold' }).where(eq(products.id, product.id));
    const response = await createIntent(t.app, await bearer(t.app, buyers[0]!.user.id), buyers[0]!.booking.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(paymentMessages.productSold);
    const intents = await t.db.select().from(simulatedPaymentIntents);
    expect(intents.filter((intent) => intent.metadata.bookingId === buyers[0]!.booking.id)).toHaveLength(0);
  });

  it('refuses a booking that is already paid', async () => {
    const { buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { transactionId } = await payByCard(t.app, headers, buyers[0]!.booking.id);
    await postPayment(t.app, headers, { transactionId, productId: buyers[0]!.booking.productId! });
    const again = await createIntent(t.app, headers, buyers[0]!.booking.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(paymentMessages.alreadyPaid);
  });
});

describe('GET /api/dashboard/payment/:id', () => {
  it("answers the caller's own booking, and nobody else's", async () => {
    const { product, buyers } = await bookedProduct(t.db, { resalePrice: '80.00' });
    const { user, booking } = buyers[0]!;
    const response = await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${booking.id}`, headers: await bearer(t.app, user.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: expect.objectContaining({
        _id: booking.id,
        buyerName: user.name,
        buyerEmail: user.email,
        productId: product.id,
        productPrice: 80,
        inStock: 'available',
        paymentStatus: 'unpaid',
        transactionId: null,
      }),
    });

    const stranger = await createUser(t.db, { role: 'buyer' });
    const asStranger = await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${booking.id}`, headers: await bearer(t.app, stranger.id) });
    expect(asStranger.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${booking.id}` })).statusCode).toBe(401);
  });
});

describe('POST /api/payment', () => {
  it('completes the sale: product sold, payment recorded, booking paid, and every other booking and wish shows sold', async () => {
    const { product, buyers } = await bookedProduct(t.db, { buyerCount: 2 });
    const [winner, other] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    await createWish(t.db, { buyerId: other.user.id, productId: product.id });
    const headers = await bearer(t.app, winner.user.id);
    const { transactionId } = await payByCard(t.app, headers, winner.booking.id);

    const response = await postPayment(t.app, headers, { transactionId, productId: product.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: paymentMessages.recorded });

    const [sold] = await t.db.select().from(products).where(eq(products.id, product.id));
    expect(sold!.inStock).toBe('sold');
    expect(await paymentsOfProduct(t.db, product.id)).toEqual([
      expect.objectContaining({
        provider: 'simulated',
        transactionId,
        bookingId: winner.booking.id,
        buyerId: winner.user.id,
        buyerName: winner.user.name,
        buyerEmail: winner.user.email,
        amountCents: 15_000,
        currency: 'usd',
        status: 'succeeded',
        refundId: null,
      }),
    ]);
    const paid = await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${winner.booking.id}`, headers });
    expect(paid.json().data).toMatchObject({ paymentStatus: 'paid', transactionId, inStock: 'sold' });

    const otherHeaders = await bearer(t.app, other.user.id);
    const otherBookings = await t.app.inject({ method: 'GET', url: '/api/booking', query: { email: other.user.email }, headers: otherHeaders });
    expect(otherBookings.json().data).toEqual([expect.objectContaining({ _id: other.booking.id, inStock: 'sold', paymentStatus: 'unpaid' })]);
    const otherWishes = await t.app.inject({ method: 'GET', url: '/api/wishes', query: { email: other.user.email }, headers: otherHeaders });
    expect(otherWishes.json().data).toEqual([expect.objectContaining({ productId: product.id, inStock: 'sold' })]);
  });

  it('records a payment posted twice once, and answers success both times', async () => {
    const { product, buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { transactionId } = await payByCard(t.app, headers, buyers[0]!.booking.id);
    const first = await postPayment(t.app, headers, { transactionId, productId: product.id });
    const second = await postPayment(t.app, headers, { transactionId, productId: product.id, bookingId: buyers[0]!.booking.id });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual(first.json());
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(1);
  });

  it('reads the status from the provider and does not trust the one sent', async () => {
    const { product, buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { clientSecret } = (await createIntent(t.app, headers, buyers[0]!.booking.id)).json();
    const declined = await confirmCard(t.app, headers, clientSecret, cards.declined);
    expect(declined.statusCode).toBe(402);

    const response = await postPayment(t.app, headers, { transactionId: clientSecret.split('_secret_')[0], productId: product.id });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toBe(paymentMessages.notSucceeded('requires_payment_method'));
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(0);
    const [unsold] = await t.db.select().from(products).where(eq(products.id, product.id));
    expect(unsold!.inStock).toBe('available');
  });

  it("refuses a transaction id that is unknown or belongs to another buyer's booking", async () => {
    const { product, buyers } = await bookedProduct(t.db, { buyerCount: 2 });
    const [owner, other] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const { transactionId } = await payByCard(t.app, await bearer(t.app, owner.user.id), owner.booking.id);
    const otherHeaders = await bearer(t.app, other.user.id);

    const stolen = await postPayment(t.app, otherHeaders, { transactionId, productId: product.id });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toBe(paymentMessages.otherBooking);
    const unknown = await postPayment(t.app, otherHeaders, { transactionId: 'pi_sim_doesnotexist', productId: product.id });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(paymentMessages.unknownTransaction);
    const notBooked = await postPayment(t.app, await bearer(t.app, (await createUser(t.db)).id), { transactionId, productId: product.id });
    expect(notBooked.statusCode).toBe(404);
    // Only the owner's own payment, recorded when their card was charged.
    expect((await paymentsOfProduct(t.db, product.id)).map((payment) => payment.buyerId)).toEqual([owner.user.id]);
  });

  it('refunds a payment that lost the product to another buyer, records the refund, and answers a clear 409', async () => {
    const { product, buyers } = await bookedProduct(t.db, { buyerCount: 2, resalePrice: '120.00' });
    const [first, late] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const firstHeaders = await bearer(t.app, first.user.id);
    const lateHeaders = await bearer(t.app, late.user.id);
    // Both have paid by card at the provider (as with Stripe) before either payment reaches the server.
    const firstPayment = await chargeAtProvider(t.app, firstHeaders, first.booking.id);
    const latePayment = await chargeAtProvider(t.app, lateHeaders, late.booking.id);

    expect((await postPayment(t.app, firstHeaders, { transactionId: firstPayment.transactionId, productId: product.id })).statusCode).toBe(200);
    const lost = await postPayment(t.app, lateHeaders, { transactionId: latePayment.transactionId, productId: product.id });
    expect(lost.statusCode).toBe(409);
    expect(lost.json()).toEqual({ success: false, message: paymentMessages.refunded['product-sold'](12_000) });

    const provider = t.app.payments as SimulatedPaymentProvider;
    const refundId = await provider.refundOf(latePayment.transactionId);
    expect(refundId).toMatch(/^re_sim_/);
    const rows = await paymentsOfProduct(t.db, product.id);
    expect(rows.find((row) => row.transactionId === latePayment.transactionId)).toMatchObject({
      status: 'refunded',
      refundId,
      buyerId: late.user.id,
      amountCents: 12_000,
    });
    expect(rows.find((row) => row.transactionId === firstPayment.transactionId)?.status).toBe('succeeded');

    // Posting the refunded payment again changes nothing and answers the same.
    const again = await postPayment(t.app, lateHeaders, { transactionId: latePayment.transactionId, productId: product.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(lost.json());
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(2);
    expect(await provider.refundOf(latePayment.transactionId)).toBe(refundId);

    const lateBooking = await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${late.booking.id}`, headers: lateHeaders });
    expect(lateBooking.json().data).toMatchObject({ paymentStatus: 'unpaid', inStock: 'sold', transactionId: null });
  });

  it('refuses to charge a card for a product sold after the client secret was fetched', async () => {
    const { product, buyers } = await bookedProduct(t.db, { buyerCount: 2 });
    const [first, late] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const lateHeaders = await bearer(t.app, late.user.id);
    const { clientSecret } = (await createIntent(t.app, lateHeaders, late.booking.id)).json();

    const firstHeaders = await bearer(t.app, first.user.id);
    const { transactionId } = await payByCard(t.app, firstHeaders, first.booking.id);
    await postPayment(t.app, firstHeaders, { transactionId, productId: product.id });

    const refused = await confirmCard(t.app, lateHeaders, clientSecret);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(paymentMessages.productSold);
    expect((await t.app.payments.retrieveIntent(clientSecret.split('_secret_')[0]))?.status).toBe('requires_payment_method');
  });

  it('refunds a second payment for a booking that is already paid', async () => {
    const { product, buyers } = await bookedProduct(t.db);
    const { user, booking } = buyers[0]!;
    const headers = await bearer(t.app, user.id);
    const firstPayment = await payByCard(t.app, headers, booking.id);
    // A second intent for the same booking, as if made from another device before the first was posted.
    const second = await t.app.payments.createIntent({
      amountCents: 15_000,
      currency: 'usd',
      metadata: { bookingId: booking.id, productId: product.id, buyerId: user.id },
      idempotencyKey: 'another-device',
    });
    expect((await (t.app.payments as SimulatedPaymentProvider).confirm(second.clientSecret, card())).ok).toBe(true);

    expect((await postPayment(t.app, headers, { transactionId: firstPayment.transactionId, productId: product.id })).statusCode).toBe(200);
    const duplicate = await postPayment(t.app, headers, { transactionId: second.id, productId: product.id });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(paymentMessages.refunded['already-paid'](15_000));
  });

  it('needs a signed-in account that buys', async () => {
    const anonymous = await postPayment(t.app, {}, { transactionId: 'pi_sim_x', productId: '00000000-0000-4000-8000-000000000000' });
    expect(anonymous.statusCode).toBe(401);
    const { product } = await bookedProduct(t.db);
    const admin = await createUser(t.db, { role: 'admin' });
    await createBooking(t.db, product, admin.id);
    const asAdmin = await postPayment(t.app, await bearer(t.app, admin.id), { transactionId: 'pi_sim_x', productId: product.id });
    expect(asAdmin.statusCode).toBe(403);
  });
});

describe('POST /api/payments/stripe/webhook with the simulated provider', () => {
  it('answers 404: there are no webhooks to receive', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: '{"id":"evt_1"}',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(paymentMessages.webhooksInactive);
  });
});
