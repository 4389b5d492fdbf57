import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ledgerMessages, paymentMessages } from '@furniture/contract';
import { bearer, testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { buildApp, type App } from '../app.ts';
import { payoutAccounts, payouts } from '../db/schema/index.ts';
import { createUser } from '../demo/factories.ts';
import { balancesOf, recordCharge, recordRelease } from '../ledger/ledger.ts';
import { StripePaymentProvider } from '../payments/stripe-provider.ts';
import { createPayoutProvider } from './create-payout-provider.ts';
import { payOutEveryBalance, requestPayout, retryPendingPayouts } from './payouts.ts';
import { StripePayoutProvider } from './stripe-payout-provider.ts';

/** Payouts through Stripe Connect (decision 42), against a stand-in for api.stripe.com. */

const settings = {
  provider: 'stripe' as const,
  secretKey: 'sk_test_marketplace',
  publishableKey: 'pk_test_marketplace',
  webhookSecret: 'whsec_test_marketplace',
  connectWebhookSecret: 'whsec_test_connect',
};
const publicUrl = 'http://localhost:5000';

interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

interface FakeAccount {
  id: string;
  object: 'account';
  type: 'express';
  email: string;
  payouts_enabled: boolean;
  charges_enabled: boolean;
  details_submitted: boolean;
  capabilities: { transfers: 'active' | 'inactive' };
  metadata: Record<string, string>;
}

/**
 * Stands in for Stripe's Connect API behind the SDK's fetch HTTP client: Express accounts, account
 * links and transfers, each create answered again for a key it has seen, as Stripe does.
 */
function fakeStripeConnect() {
  const requests: RecordedRequest[] = [];
  const accounts = new Map<string, FakeAccount>();
  const transfers: { id: string; amount: number; destination: string }[] = [];
  const answeredByKey = new Map<string, unknown>();
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'request-id': 'req_test' } });

  function create(request: RecordedRequest): [number, unknown] {
    const { form } = request;
    if (request.path === '/v1/accounts') {
      const account: FakeAccount = {
        id: `acct_test_${accounts.size + 1}`,
        object: 'account',
        type: 'express',
        email: form.email!,
        payouts_enabled: false,
        charges_enabled: false,
        details_submitted: false,
        capabilities: { transfers: 'inactive' },
        metadata: { sellerId: form['metadata[sellerId]']! },
      };
      accounts.set(account.id, account);
      return [200, account];
    }
    if (request.path === '/v1/account_links') {
      return [200, { object: 'account_link', created: 1, expires_at: 2, url: `https://connect.stripe.com/setup/e/${form.account}/link_${requests.length}` }];
    }
    if (request.path === '/v1/transfers') {
      if (accounts.get(form.destination!)?.capabilities.transfers !== 'active') {
        return [400, { error: { type: 'invalid_request_error', message: 'Your destination account needs to have the transfers capability enabled.' } }];
      }
      const transfer = { id: `tr_test_${transfers.length + 1}`, object: 'transfer', amount: Number(form.amount), currency: form.currency, destination: form.destination! };
      transfers.push(transfer);
      return [200, transfer];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${request.path})` } }];
  }

  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]);
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      idempotencyKey: headers.get('idempotency-key') ?? undefined,
      form: Object.fromEntries(new URLSearchParams(typeof init?.body === 'string' ? init.body : '').entries()),
    };
    requests.push(request);
    const retrieve = /^\/v1\/accounts\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) return json(200, accounts.get(retrieve[1]!));
    const key = request.idempotencyKey && `${request.path} ${request.idempotencyKey}`;
    if (key && answeredByKey.has(key)) return json(200, answeredByKey.get(key));
    const [status, body] = create(request);
    if (key && status === 200) answeredByKey.set(key, body);
    return json(status, body);
  };

  return {
    requests,
    accounts,
    transfers,
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    posts: (path: string) => requests.filter((request) => request.method === 'POST' && request.path === path),
    /** What Stripe does once the seller finished onboarding and Stripe verified them. */
    enable(accountId: string) {
      Object.assign(accounts.get(accountId)!, { payouts_enabled: true, details_submitted: true, capabilities: { transfers: 'active' } });
      return accounts.get(accountId)!;
    },
  };
}

let fake: ReturnType<typeof fakeStripeConnect>;
let app: App;
let database: TestDatabase;
let stripePayouts: StripePayoutProvider;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = fakeStripeConnect();
  stripePayouts = new StripePayoutProvider(database.db, { secretKey: settings.secretKey, returnUrl: `${publicUrl}/dashboard/earnings` }, { httpClient: fake.httpClient });
  const payments = new StripePaymentProvider(settings, { httpClient: fake.httpClient });
  app = await buildApp({ config: testConfig({ payments: settings, publicUrl }), db: database.db, payments, payouts: stripePayouts, jobs: { recurring: false } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});
beforeEach(() => {
  fake.requests.length = 0;
});

/** A seller with $135.00 available: a $150 sale, its $15 fee taken, released. */
async function sellerWithMoney() {
  const seller = await createUser(database.db, { role: 'seller', verified: true });
  const sale = { bookingId: randomUUID(), sellerId: seller.id, productName: 'Oak chair', amountCents: 15_000, feeCents: 1_500 };
  await database.db.transaction(async (tx) => {
    await recordCharge(tx, sale);
    await recordRelease(tx, sale);
  });
  return { seller, headers: await bearer(app, seller.id) };
}

const call = (method: 'GET' | 'POST', url: string, headers: { authorization: string }) => app.inject({ method, url, headers });

/** A seller whose Stripe account is onboarded and enabled. */
async function readySeller() {
  const ready = await sellerWithMoney();
  const link = await call('POST', '/api/me/payout-account', ready.headers);
  const [row] = await database.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, ready.seller.id));
  fake.enable(row!.stripeAccountId);
  expect((await call('GET', '/api/me/payout-account', ready.headers)).json().data.status).toBe('ready');
  fake.requests.length = 0;
  return { ...ready, link, accountId: row!.stripeAccountId };
}

describe('Stripe Connect payouts', () => {
  it('is the payout provider when PAYMENT_PROVIDER=stripe', async () => {
    expect(await createPayoutProvider({ payments: settings, publicUrl }, database.db)).toBeInstanceOf(StripePayoutProvider);
  });

  it('creates the seller’s Express account once and answers a link to Stripe’s onboarding', async () => {
    const { seller, headers } = await sellerWithMoney();
    expect((await call('GET', '/api/me/payout-account', headers)).json().data).toEqual({ _id: seller.id, provider: 'stripe', status: 'not-set-up' });

    const first = await call('POST', '/api/me/payout-account', headers);
    expect(first.statusCode).toBe(200);
    const [created] = fake.posts('/v1/accounts');
    expect(created!.form).toEqual({ type: 'express', email: seller.email, 'capabilities[transfers][requested]': 'true', 'metadata[sellerId]': seller.id });
    expect(created!.idempotencyKey).toBe(`payout-account:${seller.id}`);
    const accountId = [...fake.accounts.values()].find((account) => account.metadata.sellerId === seller.id)!.id;
    expect(fake.posts('/v1/account_links')[0]!.form).toEqual({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: `${publicUrl}/dashboard/earnings`,
      return_url: `${publicUrl}/dashboard/earnings`,
    });
    expect(first.json().data).toEqual({
      _id: seller.id,
      provider: 'stripe',
      status: 'details-needed',
      onboardingUrl: expect.stringMatching(new RegExp(`^https://connect\\.stripe\\.com/setup/e/${accountId}/`)),
    });

    // Back later: a new link to the same account.
    const again = await call('POST', '/api/me/payout-account', headers);
    expect(again.json().data.onboardingUrl).not.toBe(first.json().data.onboardingUrl);
    expect(fake.posts('/v1/accounts')).toHaveLength(1);
    expect(await database.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))).toEqual([
      expect.objectContaining({ stripeAccountId: accountId, payoutsEnabled: false, transfersActive: false }),
    ]);
  });

  it('refuses "Pay out now" while the account is not set up or Stripe needs details, and keeps the money', async () => {
    const { seller, headers } = await sellerWithMoney();
    const notSetUp = await call('POST', '/api/me/payouts', headers);
    expect(notSetUp.statusCode).toBe(409);
    expect(notSetUp.json().message).toBe(ledgerMessages.payoutAccountNotSetUp);

    await call('POST', '/api/me/payout-account', headers);
    const detailsNeeded = await call('POST', '/api/me/payouts', headers);
    expect(detailsNeeded.statusCode).toBe(409);
    expect(detailsNeeded.json().message).toBe(ledgerMessages.payoutAccountDetailsNeeded);

    expect(await payOutEveryBalance({ db: database.db, provider: stripePayouts })).toEqual([]);
    expect(fake.posts('/v1/transfers')).toHaveLength(0);
    expect(await database.db.select().from(payouts).where(eq(payouts.sellerId, seller.id))).toEqual([]);
    expect(await balancesOf(database.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 13_500, paidOutCents: 0 });
  });

  describe('the account.updated webhook', () => {
    const accountEvent = (account: FakeAccount) =>
      JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'account.updated', account: account.id, data: { object: account } }, null, 2);
    const deliver = (payload: string, secret: string) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
        payload,
      });

    /** A seller who finished onboarding: Stripe has enabled the account, and not yet told the marketplace. */
    async function sellerEnabledAtStripe() {
      const { seller, headers } = await sellerWithMoney();
      await call('POST', '/api/me/payout-account', headers);
      const [row] = await database.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id));
      const enabled = fake.enable(row!.stripeAccountId);
      fake.requests.length = 0;
      return { seller, headers, enabled };
    }

    it('records, from the account as Stripe has it, that payouts are enabled', async () => {
      const { seller, headers, enabled } = await sellerEnabledAtStripe();

      const response = await deliver(accountEvent(enabled), settings.connectWebhookSecret);
      expect(response.statusCode).toBe(200);
      expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v1/accounts/${enabled.id}`]);
      const [recorded] = await database.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id));
      expect(recorded).toMatchObject({ payoutsEnabled: true, transfersActive: true });
      expect((await call('GET', '/api/me/payout-account', headers)).json().data.status).toBe('ready');
    });

    it('refuses an event with a bad signature and records nothing', async () => {
      const { seller, enabled } = await sellerEnabledAtStripe();

      const response = await deliver(accountEvent(enabled), 'whsec_someone_else');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(paymentMessages.badSignature);
      expect(fake.requests).toEqual([]);
      const [unchanged] = await database.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id));
      expect(unchanged).toMatchObject({ payoutsEnabled: false, transfersActive: false });
    });
  });

  it('pays out with one transfer to the seller’s account, keyed by the payout’s id', async () => {
    const { seller, headers, accountId } = await readySeller();
    const response = await call('POST', '/api/me/payouts', headers);
    expect(response.statusCode).toBe(201);
    const made = response.json().data;
    expect(made).toMatchObject({ amountCents: 13_500, status: 'paid', provider: 'stripe', reference: expect.stringMatching(/^tr_test_/) });

    const sent = fake.posts('/v1/transfers');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.form).toEqual({
      amount: '13500',
      currency: 'usd',
      destination: accountId,
      transfer_group: `payout:${made._id}`,
      'metadata[sellerId]': seller.id,
    });
    expect(sent[0]!.idempotencyKey).toBe(`payout:${made._id}`);
    expect(fake.transfers.filter((transfer) => transfer.destination === accountId)).toEqual([expect.objectContaining({ id: made.reference, amount: 13_500 })]);
    expect(await balancesOf(database.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 13_500 });
  });

  it('pays once when Stripe’s answer is lost: the retry sends the same key and records the transfer Stripe already made', async () => {
    const { seller, accountId } = await readySeller();
    // The transfer is made, and the process loses Stripe's answer (it dies, or the connection drops).
    const losingTheAnswer = {
      name: stripePayouts.name,
      accountStatusOf: (sellerId: string) => stripePayouts.accountStatusOf(sellerId),
      payout: async (request: Parameters<StripePayoutProvider['payout']>[0]) => {
        await stripePayouts.payout(request);
        throw new Error('socket hang up');
      },
    };
    const pending = await requestPayout({ db: database.db, provider: losingTheAnswer }, seller.id);
    expect(pending).toMatchObject({ status: 'pending', reference: null });

    await retryPendingPayouts({ db: database.db, provider: stripePayouts }, 0);
    const sent = fake.posts('/v1/transfers');
    expect(sent.map((request) => request.idempotencyKey)).toEqual([`payout:${pending.id}`, `payout:${pending.id}`]);
    const made = fake.transfers.filter((transfer) => transfer.destination === accountId);
    expect(made).toHaveLength(1);
    const [recorded] = await database.db.select().from(payouts).where(eq(payouts.id, pending.id));
    expect(recorded).toMatchObject({ status: 'paid', reference: made[0]!.id });
    expect(await balancesOf(database.db, seller.id)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 13_500 });
  });
});
