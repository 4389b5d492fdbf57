import { and, eq } from 'drizzle-orm';
import type { App } from '../src/app.ts';
import type { Executor } from '../src/db/client.ts';
import { createBooking, createCategory, createProduct, createUser } from '../src/demo/factories.ts';
import { payments } from '../src/db/schema/index.ts';
import type { PaymentProvider } from '../src/payments/payment-provider.ts';
import type { SimulatedPaymentProvider } from '../src/payments/simulated-provider.ts';

/** Test helpers of the payment flow, shared by the payment test files. */

export const cards = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
} as const;

/** A card that has not expired, with the given number. */
export function card(number: string = cards.succeeds, overrides: Partial<{ expMonth: string; expYear: string; cvc: string }> = {}) {
  return { number, expMonth: '12', expYear: String(new Date().getUTCFullYear() + 3), cvc: '123', ...overrides };
}

/** A seller's product, booked by `buyerCount` buyers. */
export async function bookedProduct(db: Executor, options: { resalePrice?: string; buyerCount?: number } = {}) {
  const seller = await createUser(db, { role: 'seller', verified: true });
  const category = await createCategory(db);
  const product = await createProduct(db, { categoryId: category.id, sellerId: seller.id }, { resalePrice: options.resalePrice ?? '150.00' });
  const buyers = [];
  for (let i = 0; i < (options.buyerCount ?? 1); i++) {
    const user = await createUser(db, { role: 'buyer', password: null });
    buyers.push({ user, booking: await createBooking(db, product, user.id) });
  }
  return { seller, product, buyers };
}

/** A booked product whose buyers have each paid by card; answers the succeeded intents. */
export async function paidIntents(db: Executor, provider: SimulatedPaymentProvider, buyerCount: number) {
  const booked = await bookedProduct(db, { buyerCount });
  const intents = [];
  for (const { user, booking } of booked.buyers) {
    const created = await provider.createIntent({
      amountCents: 15_000,
      currency: 'usd',
      metadata: { bookingId: booking.id, productId: booked.product.id, buyerId: user.id },
      idempotencyKey: `test:${booking.id}`,
    });
    const confirmed = await provider.confirm(created.clientSecret, card());
    if (!confirmed.ok) throw new Error(confirmed.message);
    intents.push((await provider.retrieveIntent(created.id))!);
  }
  return { ...booked, intents };
}

/** The simulated provider with another refund: one that fails, records its calls or waits. */
export function withRefund(simulated: SimulatedPaymentProvider, refund: PaymentProvider['refund']): PaymentProvider {
  return {
    name: simulated.name,
    createIntent: (input) => simulated.createIntent(input),
    retrieveIntent: (id) => simulated.retrieveIntent(id),
    parseWebhook: () => simulated.parseWebhook(),
    refund,
  };
}

type Headers = Record<string, string>;

export async function createIntent(app: App, headers: Headers, bookingId: string) {
  return app.inject({ method: 'POST', url: '/api/create-payment-intent', headers, payload: { bookingId, productPrice: 1 } });
}

export async function confirmCard(app: App, headers: Headers, clientSecret: string, number: string = cards.succeeds) {
  return app.inject({
    method: 'POST',
    url: '/api/payments/simulated/confirm',
    headers,
    payload: { clientSecret, card: card(number), billingDetails: { name: 'Karim', email: 'karim@example.com' } },
  });
}

export async function postPayment(app: App, headers: Headers, body: { transactionId: string; productId: string; bookingId?: string }) {
  return app.inject({
    method: 'POST',
    url: '/api/payment',
    headers,
    payload: { status: 'succeeded', buyerName: 'Karim', buyerEmail: 'karim@example.com', ...body },
  });
}

/** Gets a client secret and pays it with a card; answers the transaction id (the intent id). */
export async function payByCard(app: App, headers: Headers, bookingId: string, number: string = cards.succeeds) {
  const intent = await createIntent(app, headers, bookingId);
  if (intent.statusCode !== 200) throw new Error(`create-payment-intent answered ${intent.statusCode}: ${intent.body}`);
  const clientSecret: string = intent.json().clientSecret;
  const confirmed = await confirmCard(app, headers, clientSecret, number);
  return { clientSecret, transactionId: clientSecret.split('_secret_')[0]!, confirmed };
}

/**
 * Gets a client secret and charges the card at the provider only, as Stripe.js does with Stripe:
 * the server hears of the charge only when the payment is posted (or its intent is checked).
 */
export async function chargeAtProvider(app: App, headers: Headers, bookingId: string) {
  const intent = await createIntent(app, headers, bookingId);
  if (intent.statusCode !== 200) throw new Error(`create-payment-intent answered ${intent.statusCode}: ${intent.body}`);
  const clientSecret: string = intent.json().clientSecret;
  const confirmed = await (app.payments as SimulatedPaymentProvider).confirm(clientSecret, card());
  if (!confirmed.ok) throw new Error(confirmed.message);
  return { clientSecret, transactionId: confirmed.intent.id };
}

export async function paymentsOfProduct(db: Executor, productId: string) {
  return db.select().from(payments).where(eq(payments.productId, productId));
}

export async function paymentOf(db: Executor, provider: string, transactionId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.transactionId, transactionId)));
  return row;
}
