import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createBooking, createCategory, createProduct, createUser } from '../demo/factories.ts';
import { cards, createIntent } from '../../test/payment-fixtures.ts';
import { unsubscribeToken } from '../notifications/notification-mail.ts';
import { startSession } from '../users/refresh-tokens.ts';

/**
 * Requests that fail inside the database (a trigger refuses the write) are logged at error level.
 * Whatever the failing statement carried, the log holds no password, hash, token, cookie, card
 * number or secret.
 */

let database: TestDatabase;
let app: App;
const logLines: string[] = [];
const logText = () => logLines.join('');

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    config: testConfig({ logLevel: 'debug' }),
    db: database.db,
    jobs: { recurring: false },
    logStream: { write: (line) => void logLines.push(line) },
  });
  await app.ready();
  await database.db.execute(sql`
    create function refuse_write() returns trigger language plpgsql as $$
    begin raise exception 'the disk is full'; end $$`);
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** Makes every write of this kind to the table fail while `run` runs. */
async function whileWritesFail<T>(table: string, event: 'insert' | 'update', run: () => Promise<T>): Promise<T> {
  await database.db.execute(sql.raw(`create trigger refuse_${table} before ${event} on ${table} for each row execute function refuse_write()`));
  try {
    return await run();
  } finally {
    await database.db.execute(sql.raw(`drop trigger refuse_${table} on ${table}`));
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const password = 'Hunter2Secret';

function expectLoggedFailureWithout(secrets: string[]) {
  const log = logText();
  // The failure itself is logged, with the database's message...
  expect(log).toContain('request failed');
  expect(log).toContain('the disk is full');
  // ...and nothing secret.
  for (const secret of secrets) expect(log).not.toContain(secret);
  expect(log).not.toMatch(/\$argon2/);
}

describe('the log of failing requests', () => {
  it('holds no password or hash of a failing sign-up', async () => {
    logLines.length = 0;
    const response = await whileWritesFail('users', 'insert', () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { name: 'Rahim', email: 'rahim-log@example.com', password, image: 'https://images.example.com/r.webp', userRole: 'buyer' },
      }),
    );
    expect(response.statusCode).toBe(500);
    expectLoggedFailureWithout([password]);
  });

  it('holds no password, token, cookie or authorization of a failing login and token refresh', async () => {
    const user = await createUser(app.db, { email: 'login-log@example.com', password });
    const signedIn = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    const refreshCookie = signedIn.cookies.find((cookie) => cookie.name === 'furniture_refresh')!.value;
    const accessToken: string = signedIn.json().token;

    logLines.length = 0;
    const login = await whileWritesFail('refresh_tokens', 'insert', () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { authorization: `bearer ${accessToken}`, cookie: `furniture_refresh=${refreshCookie}` },
        payload: { email: user.email, password },
      }),
    );
    expect(login.statusCode).toBe(500);
    expectLoggedFailureWithout([password, accessToken, refreshCookie, sha256(refreshCookie)]);

    logLines.length = 0;
    const refresh = await whileWritesFail('refresh_tokens', 'insert', () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { authorization: `bearer ${accessToken}`, cookie: `furniture_refresh=${refreshCookie}` },
      }),
    );
    expect(refresh.statusCode).toBe(500);
    expectLoggedFailureWithout([accessToken, refreshCookie, sha256(refreshCookie)]);
  });

  it('holds no card number or client secret of a failing payment', async () => {
    const seller = await createUser(app.db, { role: 'seller' });
    const buyer = await createUser(app.db, { role: 'buyer' });
    const product = await createProduct(app.db, { categoryId: (await createCategory(app.db)).id, sellerId: seller.id });
    const booking = await createBooking(app.db, product, buyer.id);
    const { sessionId } = await startSession(app.db, buyer.id);
    const headers = { authorization: `bearer ${await app.accessTokens.issue({ userId: buyer.id, sessionId })}` };
    const clientSecret: string = (await createIntent(app, headers, booking.id)).json().clientSecret;

    logLines.length = 0;
    const confirmed = await whileWritesFail('simulated_payment_intents', 'update', () =>
      app.inject({
        method: 'POST',
        url: '/api/payments/simulated/confirm',
        headers,
        payload: { clientSecret, card: { number: cards.succeeds, expMonth: '12', expYear: '2099', cvc: '123' } },
      }),
    );
    expect(confirmed.statusCode).toBe(500);
    expectLoggedFailureWithout([cards.succeeds, clientSecret, clientSecret.split('_secret_')[1]!, headers.authorization.slice(7)]);
  });
});

describe('the log of requests', () => {
  it('holds no unsubscribe token and no e-mail address from a query string', async () => {
    const user = await createUser(app.db, { email: 'query-log@example.com', password });
    const token = await unsubscribeToken(app.db, user.id);
    const { sessionId } = await startSession(app.db, user.id);
    const headers = { authorization: `bearer ${await app.accessTokens.issue({ userId: user.id, sessionId })}` };

    logLines.length = 0;
    const unsubscribed = await app.inject({ method: 'GET', url: `/api/notification-settings/unsubscribe?token=${encodeURIComponent(token)}` });
    expect(unsubscribed.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: `/api/user?email=${user.email}`, headers });
    await app.inject({ method: 'GET', url: `/api/booking?email=${encodeURIComponent(user.email)}`, headers });
    const log = logText();
    // The requests are logged, with their paths...
    expect(log).toContain('/api/notification-settings/unsubscribe?token=[redacted]');
    expect(log).toContain('/api/user?email=[email]');
    // ...and nothing that names or unlocks the account.
    for (const secret of [token, encodeURIComponent(token), user.email, encodeURIComponent(user.email)]) expect(log).not.toContain(secret);
  });
});
