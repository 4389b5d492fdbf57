import { cardMessages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import { simulatedPaymentIntents } from '../db/schema/index.ts';
import { bookedProduct, card, cards, confirmCard, createIntent } from '../../test/payment-fixtures.ts';
import { PaymentProviderError } from './payment-provider.ts';
import { judgeCard, passesLuhn } from './simulated-cards.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

/** A fixed "now" for the expiry checks: 15 March 2030. */
const now = new Date(Date.UTC(2030, 2, 15));
const validCard = (number: string, overrides: Partial<{ expMonth: string; expYear: string; cvc: string }> = {}) => ({
  number,
  expMonth: '12',
  expYear: '2031',
  cvc: '123',
  ...overrides,
});

describe("the simulated provider's card checks", () => {
  it.each([
    ['4242 4242 4242 4242', { ok: true, brand: 'visa', last4: '4242' }],
    ['5555 5555 5555 4444', { ok: true, brand: 'mastercard', last4: '4444' }],
    ['4000 0000 0000 0002', { ok: false, code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' }],
    [
      '4000 0000 0000 9995',
      { ok: false, code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    ],
    ['4000 0000 0000 9987', { ok: false, code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' }],
    ['4000 0000 0000 0069', { ok: false, code: 'expired_card', message: 'Your card has expired.' }],
    ['4000 0000 0000 0127', { ok: false, code: 'incorrect_cvc', message: "Your card's security code is incorrect." }],
    ['4000 0000 0000 0119', { ok: false, code: 'processing_error', message: cardMessages.processingError }],
  ])('test card %s has its documented outcome', (number, expected) => {
    expect(judgeCard(validCard(number), now)).toEqual(expected);
  });

  it('declines a valid card number that is not a test card', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(judgeCard(validCard('4111 1111 1111 1111'), now)).toMatchObject({ ok: false, message: cardMessages.notATestCard });
  });

  it.each([
    ['', cardMessages.incompleteNumber],
    ['4242 4242', cardMessages.incompleteNumber],
    ['4242 4242 4242 4241', cardMessages.invalidNumber],
    ['4242-abcd-4242-4242', cardMessages.invalidNumber],
  ])('refuses the card number %o: %s', (number, message) => {
    expect(judgeCard(validCard(number), now)).toMatchObject({ ok: false, message });
  });

  it.each([
    [{ expMonth: '' }, cardMessages.incompleteExpiry],
    [{ expMonth: '13' }, cardMessages.invalidExpiryMonth],
    [{ expMonth: '0' }, cardMessages.invalidExpiryMonth],
    [{ expYear: '203' }, cardMessages.invalidExpiryYear],
    [{ expMonth: '2', expYear: '2030' }, cardMessages.expiryInPast],
    [{ expMonth: '12', expYear: '29' }, cardMessages.expiryInPast],
    [{ expYear: '2099' }, cardMessages.invalidExpiryYear],
  ])('checks the expiry date %o: %s', (expiry, message) => {
    expect(judgeCard(validCard('4242424242424242', expiry), now)).toMatchObject({ ok: false, message });
  });

  it('accepts a card that expires this month, with a two-digit year', () => {
    expect(judgeCard(validCard('4242424242424242', { expMonth: '3', expYear: '30' }), now)).toMatchObject({ ok: true });
  });

  it.each([
    ['4242424242424242', '', cardMessages.incompleteCvc],
    ['4242424242424242', '12', cardMessages.incompleteCvc],
    ['4242424242424242', '1234', cardMessages.invalidCvc],
    ['4242424242424242', '12a', cardMessages.invalidCvc],
    ['378282246310005', '123', cardMessages.incompleteCvc],
  ])('checks the security code of %s: %o', (number, cvc, message) => {
    expect(judgeCard(validCard(number, { cvc }), now)).toMatchObject({ ok: false, message });
  });

  it('takes a four-digit security code on American Express', () => {
    expect(judgeCard(validCard('3782 822463 10005', { cvc: '1234' }), now)).toEqual({ ok: true, brand: 'amex', last4: '0005' });
  });
});

describe('SimulatedPaymentProvider', () => {
  const metadata = { bookingId: 'b1', productId: 'p1', buyerId: 'u1' };

  it('issues transaction ids and client secrets, and answers the same intent for the same idempotency key', async () => {
    const provider = new SimulatedPaymentProvider(t.db);
    const first = await provider.createIntent({ amountCents: 15_000, currency: 'usd', metadata, idempotencyKey: 'key-1' });
    expect(first.id).toMatch(/^pi_sim_[A-Za-z0-9]{24}$/);
    expect(first.clientSecret).toMatch(new RegExp(`^${first.id}_secret_[A-Za-z0-9]{24}$`));
    const again = await provider.createIntent({ amountCents: 15_000, currency: 'usd', metadata, idempotencyKey: 'key-1' });
    expect(again).toEqual(first);
    await expect(
      provider.createIntent({ amountCents: 9_900, currency: 'usd', metadata, idempotencyKey: 'key-1' }),
    ).rejects.toThrow(PaymentProviderError);
    expect(await provider.retrieveIntent(first.id)).toEqual({
      id: first.id,
      status: 'requires_payment_method',
      amountCents: 15_000,
      currency: 'usd',
      metadata,
    });
  });

  it('keeps an intent payable after a decline, succeeds once, and refunds it once', async () => {
    const provider = new SimulatedPaymentProvider(t.db, () => now);
    const intent = await provider.createIntent({ amountCents: 5_000, currency: 'usd', metadata, idempotencyKey: 'key-2' });

    expect(await provider.confirm(intent.clientSecret, validCard('4000000000009995'))).toMatchObject({
      ok: false,
      statusCode: 402,
      message: 'Your card has insufficient funds.',
    });
    expect((await provider.retrieveIntent(intent.id))?.status).toBe('requires_payment_method');
    await expect(provider.refund({ intentId: intent.id, idempotencyKey: 'r' })).rejects.toThrow(PaymentProviderError);

    expect(await provider.confirm(intent.clientSecret, validCard('4242424242424242'), { name: 'Karim', email: 'k@example.com' })).toEqual({
      ok: true,
      intent: { id: intent.id, status: 'succeeded' },
    });
    expect(await provider.confirm(intent.clientSecret, validCard('4242424242424242'))).toMatchObject({
      ok: false,
      code: 'payment_intent_unexpected_state',
    });
    const [row] = await t.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, intent.id));
    expect(row).toMatchObject({ cardBrand: 'visa', cardLast4: '4242', billingName: 'Karim', billingEmail: 'k@example.com' });

    const refund = await provider.refund({ intentId: intent.id, idempotencyKey: 'r' });
    expect(refund.refundId).toMatch(/^re_sim_/);
    expect(await provider.refund({ intentId: intent.id, idempotencyKey: 'r' })).toEqual(refund);
  });

  it('refuses a client secret that is not the intent’s own', async () => {
    const provider = new SimulatedPaymentProvider(t.db);
    const intent = await provider.createIntent({ amountCents: 5_000, currency: 'usd', metadata, idempotencyKey: 'key-3' });
    const forged = `${intent.id}_secret_${'x'.repeat(24)}`;
    expect(await provider.confirm(forged, validCard('4242424242424242'))).toMatchObject({ ok: false, code: 'resource_missing' });
    expect((await provider.retrieveIntent(intent.id))?.status).toBe('requires_payment_method');
  });
});

describe('POST /api/payments/simulated/confirm', () => {
  it('pays with 4242 4242 4242 4242 and answers the intent, as Stripe.js does', async () => {
    const { buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { clientSecret } = (await createIntent(t.app, headers, buyers[0]!.booking.id)).json();
    const response = await confirmCard(t.app, headers, clientSecret, cards.succeeds);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'succeeded' } });
  });

  it.each([
    [cards.declined, 'Your card was declined.'],
    [cards.insufficientFunds, 'Your card has insufficient funds.'],
  ])('answers 402 with the card error for %s', async (number, message) => {
    const { buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { clientSecret } = (await createIntent(t.app, headers, buyers[0]!.booking.id)).json();
    const response = await confirmCard(t.app, headers, clientSecret, number);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ error: { message, code: 'card_declined' } });
  });

  it('answers 402 for an expired card and a short security code', async () => {
    const { buyers } = await bookedProduct(t.db);
    const headers = await bearer(t.app, buyers[0]!.user.id);
    const { clientSecret } = (await createIntent(t.app, headers, buyers[0]!.booking.id)).json();
    const confirm = (c: ReturnType<typeof card>) =>
      t.app.inject({ method: 'POST', url: '/api/payments/simulated/confirm', headers, payload: { clientSecret, card: c } });

    const expired = await confirm(card(cards.succeeds, { expMonth: '1', expYear: '2020' }));
    expect(expired.statusCode).toBe(402);
    expect(expired.json().error.message).toBe(cardMessages.expiryInPast);

    const shortCvc = await confirm(card(cards.succeeds, { cvc: '12' }));
    expect(shortCvc.statusCode).toBe(402);
    expect(shortCvc.json().error.message).toBe(cardMessages.incompleteCvc);
  });

  it("refuses another buyer's client secret as unknown", async () => {
    const { buyers } = await bookedProduct(t.db);
    const owner = await bearer(t.app, buyers[0]!.user.id);
    const { clientSecret } = (await createIntent(t.app, owner, buyers[0]!.booking.id)).json();
    const stranger = await createUser(t.db, { role: 'buyer' });
    const response = await confirmCard(t.app, await bearer(t.app, stranger.id), clientSecret);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('resource_missing');
  });

  it('needs a signed-in account that buys', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      payload: { clientSecret: 'pi_sim_x_secret_y', card: card() },
    });
    expect(anonymous.statusCode).toBe(401);
    const admin = await createUser(t.db, { role: 'admin' });
    const asAdmin = await t.app.inject({
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      headers: await bearer(t.app, admin.id),
      payload: { clientSecret: 'pi_sim_x_secret_y', card: card() },
    });
    expect(asAdmin.statusCode).toBe(403);
  });
});
