import { paymentMessages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { buildApp, type App } from '../app.ts';
import { processedWebhookEvents, products } from '../db/schema/index.ts';
import { createPaymentProvider } from './create-payment-provider.ts';
import { bookedProduct, createIntent, paymentOf, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { StripePaymentProvider } from './stripe-provider.ts';

const settings = {
  provider: 'stripe' as const,
  secretKey: 'sk_test_marketplace',
  publishableKey: 'pk_test_marketplace',
  webhookSecret: 'whsec_test_marketplace',
};

interface RecordedRequest {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  form: Record<string, string>;
}

interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
}

/**
 * Stands in for api.stripe.com behind the SDK's own fetch HTTP client: records every request the
 * SDK sends and answers with Stripe's JSON shapes.
 */
function fakeStripeApi() {
  const requests: RecordedRequest[] = [];
  const intents = new Map<string, FakeIntent>();
  const state = { refundsFail: false, created: 0 };

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'request-id': 'req_test' } });

  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const body = typeof init?.body === 'string' ? init.body : '';
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      host: url.host,
      path: url.pathname,
      headers: Object.fromEntries(new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]).entries()),
      form: Object.fromEntries(new URLSearchParams(body).entries()),
    };
    requests.push(request);

    if (request.method === 'POST' && request.path === '/v1/payment_intents') {
      const id = `pi_test_${++state.created}`;
      const metadata = Object.fromEntries(
        Object.entries(request.form)
          .filter(([key]) => key.startsWith('metadata['))
          .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
      );
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(request.form.amount),
        currency: request.form.currency!,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_test`,
        metadata,
      };
      intents.set(id, intent);
      return json(200, intent);
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) {
      const intent = intents.get(retrieve[1]!);
      return intent
        ? json(200, intent)
        : json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${retrieve[1]}'` } });
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      if (state.refundsFail) {
        return json(400, { error: { type: 'invalid_request_error', code: 'charge_disputed', message: 'The charge is disputed.' } });
      }
      const intent = intents.get(request.form.payment_intent!);
      return json(200, { id: `re_for_${intent!.id}`, object: 'refund', payment_intent: intent!.id, amount: intent!.amount, status: 'succeeded' });
    }
    return json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.path})` } });
  };

  return {
    requests,
    intents,
    state,
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    /** What Stripe.js does in the browser: the card is charged and the intent succeeds. */
    succeed(id: string) {
      intents.get(id)!.status = 'succeeded';
      return intents.get(id)!;
    },
  };
}

let fake: ReturnType<typeof fakeStripeApi>;
let app: App;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = fakeStripeApi();
  const payments = new StripePaymentProvider(settings, { httpClient: fake.httpClient });
  app = await buildApp({ config: testConfig({ payments: settings }), db: database.db, payments });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.state.refundsFail = false;
});

describe('choosing the provider', () => {
  it('uses Stripe when PAYMENT_PROVIDER=stripe, and tells the web app its publishable key', async () => {
    expect(await createPaymentProvider(settings, database.db)).toBeInstanceOf(StripePaymentProvider);
    const config = await app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json().data).toMatchObject({ paymentProvider: 'stripe', stripePublishableKey: 'pk_test_marketplace' });
  });
});

describe('POST /api/create-payment-intent with Stripe', () => {
  it('sends Stripe the amount from the database, the currency, the metadata and an idempotency key', async () => {
    const { product, buyers } = await bookedProduct(database.db, { resalePrice: '249.99' });
    const { user, booking } = buyers[0]!;
    const response = await createIntent(app, await bearer(app, user.id), booking.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, clientSecret: 'pi_test_1_secret_test' });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', host: 'api.stripe.com', path: '/v1/payment_intents' });
    expect(request!.form).toEqual({
      amount: '24999',
      currency: 'usd',
      'allowed_payment_method_types[0]': 'card',
      'metadata[bookingId]': booking.id,
      'metadata[productId]': product.id,
      'metadata[buyerId]': user.id,
      description: booking.productName,
    });
    expect(request!.headers['idempotency-key']).toBe(`payment-intent:${booking.id}:24999`);
    expect(request!.headers.authorization).toBe('Bearer sk_test_marketplace');
  });

  it('does not call Stripe for a product that is already sold', async () => {
    const { product, buyers } = await bookedProduct(database.db);
    await database.db.update(products).set({ inStock: 'sold', state: 'sold' }).where(eq(products.id, product.id));
    const response = await createIntent(app, await bearer(app, buyers[0]!.user.id), buyers[0]!.booking.id);
    expect(response.statusCode).toBe(409);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('POST /api/payment with Stripe', () => {
  it("re-reads the intent from Stripe and completes the sale only once Stripe reports 'succeeded'", async () => {
    const { product, buyers } = await bookedProduct(database.db);
    const { user, booking } = buyers[0]!;
    const headers = await bearer(app, user.id);
    const { clientSecret } = (await createIntent(app, headers, booking.id)).json();
    const transactionId = clientSecret.split('_secret_')[0];
    fake.requests.length = 0;

    const early = await postPayment(app, headers, { transactionId, productId: product.id });
    expect(early.statusCode).toBe(402);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/payment_intents/${transactionId}`]);

    fake.succeed(transactionId);
    const paid = await postPayment(app, headers, { transactionId, productId: product.id });
    expect(paid.statusCode).toBe(200);
    expect(await paymentOf(database.db, 'stripe', transactionId)).toMatchObject({ status: 'succeeded', amountCents: 15_000, bookingId: booking.id });
  });

  it('refuses a transaction id Stripe does not know', async () => {
    const { product, buyers } = await bookedProduct(database.db);
    const response = await postPayment(app, await bearer(app, buyers[0]!.user.id), { transactionId: 'pi_unknown', productId: product.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(paymentMessages.unknownTransaction);
  });

  it('refunds through Stripe, with an idempotency key, a payment that lost the product', async () => {
    const { product, buyers } = await bookedProduct(database.db, { buyerCount: 2 });
    const [first, late] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const firstHeaders = await bearer(app, first.user.id);
    const lateHeaders = await bearer(app, late.user.id);
    const firstId = (await createIntent(app, firstHeaders, first.booking.id)).json().clientSecret.split('_secret_')[0];
    const lateId = (await createIntent(app, lateHeaders, late.booking.id)).json().clientSecret.split('_secret_')[0];
    fake.succeed(firstId);
    fake.succeed(lateId);

    expect((await postPayment(app, firstHeaders, { transactionId: firstId, productId: product.id })).statusCode).toBe(200);
    fake.requests.length = 0;
    const lost = await postPayment(app, lateHeaders, { transactionId: lateId, productId: product.id });
    expect(lost.statusCode).toBe(409);
    expect(lost.json().message).toBe(paymentMessages.refunded['product-sold'](15_000));

    const refund = fake.requests.find((r) => r.path === '/v1/refunds');
    expect(refund).toMatchObject({ method: 'POST' });
    // Nothing that could change between attempts travels with the key.
    expect(refund!.form).toEqual({ payment_intent: lateId });
    expect(refund!.headers['idempotency-key']).toBe(`refund:stripe:${lateId}`);
    expect(await paymentOf(database.db, 'stripe', lateId)).toMatchObject({ status: 'refunded', refundId: `re_for_${lateId}` });
  });
});

describe('POST /api/payments/stripe/webhook', () => {
  const url = '/api/payments/stripe/webhook';

  /** A booked product and a Stripe intent for it that the buyer has paid. */
  async function paidIntent() {
    const booked = await bookedProduct(database.db);
    const { user, booking } = booked.buyers[0]!;
    const { clientSecret } = (await createIntent(app, await bearer(app, user.id), booking.id)).json();
    return { ...booked, intent: fake.succeed(clientSecret.split('_secret_')[0]) };
  }

  function succeededEvent(intent: FakeIntent, id = `evt_${intent.id}`) {
    // Pretty-printed on purpose: the signature covers these exact bytes, not a re-serialisation.
    return JSON.stringify(
      {
        id,
        object: 'event',
        type: 'payment_intent.succeeded',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: intent },
      },
      null,
      2,
    );
  }

  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? settings.webhookSecret, timestamp: options.timestamp });

  const deliver = (payload: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
      payload,
    });

  it('fulfils a signed payment_intent.succeeded event', async () => {
    const { product, intent } = await paidIntent();
    const payload = succeededEvent(intent);
    const response = await deliver(payload, sign(payload));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await paymentOf(database.db, 'stripe', intent.id)).toMatchObject({ status: 'succeeded', productId: product.id });
    const [sold] = await database.db.select().from(products).where(eq(products.id, product.id));
    expect(sold!.inStock).toBe('sold');
  });

  it('ignores an event id it has already handled, even signed anew', async () => {
    const { product, intent } = await paidIntent();
    const payload = succeededEvent(intent);
    expect((await deliver(payload, sign(payload))).json()).toEqual({ received: true });
    const replay = await deliver(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) + 1 }));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await paymentsOfProduct(database.db, product.id)).toHaveLength(1);
    const events = await database.db.select().from(processedWebhookEvents).where(eq(processedWebhookEvents.id, `evt_${intent.id}`));
    expect(events).toEqual([expect.objectContaining({ provider: 'stripe' })]);
  });

  it.each([
    ['a wrong secret', (payload: string) => sign(payload, { secret: 'whsec_someone_else' })],
    ['a stale timestamp (301 s)', (payload: string) => sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 })],
    ['a signature of another body', (payload: string) => sign(payload.replace('"amount": 15000', '"amount": 1'))],
    ['no signature', () => undefined],
  ])('refuses an event with %s and changes nothing', async (_case, signatureOf) => {
    const { product, intent } = await paidIntent();
    const payload = succeededEvent(intent);
    const response = await deliver(payload, signatureOf(payload));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(paymentMessages.badSignature);
    expect(await paymentsOfProduct(database.db, product.id)).toHaveLength(0);
  });

  it('accepts an event signed within the 300-second tolerance', async () => {
    const { intent } = await paidIntent();
    const payload = succeededEvent(intent);
    const response = await deliver(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 240 }));
    expect(response.statusCode).toBe(200);
  });

  it('acknowledges other event types without acting on them', async () => {
    const payload = JSON.stringify({ id: 'evt_other', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
    const response = await deliver(payload, sign(payload));
    expect(response.json()).toEqual({ received: true });
  });

  it('leaves an event unacknowledged while its refund fails, so that Stripe delivers it again', async () => {
    const { product, buyers } = await bookedProduct(database.db, { buyerCount: 2 });
    const [first, late] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const firstId = (await createIntent(app, await bearer(app, first.user.id), first.booking.id)).json().clientSecret.split('_secret_')[0];
    const lateId = (await createIntent(app, await bearer(app, late.user.id), late.booking.id)).json().clientSecret.split('_secret_')[0];
    const winnerEvent = succeededEvent(fake.succeed(firstId));
    const loserEvent = succeededEvent(fake.succeed(lateId));
    expect((await deliver(winnerEvent, sign(winnerEvent))).statusCode).toBe(200);

    fake.state.refundsFail = true;
    const failed = await deliver(loserEvent, sign(loserEvent));
    expect(failed.statusCode).toBe(503);
    expect(await paymentOf(database.db, 'stripe', lateId)).toMatchObject({ status: 'refund_pending' });

    fake.state.refundsFail = false;
    const redelivered = await deliver(loserEvent, sign(loserEvent));
    expect(redelivered.json()).toEqual({ received: true });
    expect(await paymentOf(database.db, 'stripe', lateId)).toMatchObject({ status: 'refunded', refundId: `re_for_${lateId}` });
    expect((await paymentsOfProduct(database.db, product.id)).map((row) => row.status).sort()).toEqual(['refunded', 'succeeded']);
  });

  it('keeps JSON parsing for every other route', async () => {
    const { buyers } = await bookedProduct(database.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: { ...(await bearer(app, buyers[0]!.user.id)), 'content-type': 'application/json' },
      payload: JSON.stringify({ bookingId: buyers[0]!.booking.id }),
    });
    expect(response.statusCode).toBe(200);
  });
});
