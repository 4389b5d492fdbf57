import http from 'node:http';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_MAX_AGE_SECONDS } from '@furniture/contract';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { createCategory, createProduct, createUser, createWish } from '../db/factories.ts';
import { products, users } from '../db/schema/index.ts';
import { createAccessTokens } from '../users/access-tokens.ts';
import { REFRESH_COOKIE, startSession } from '../users/refresh-tokens.ts';

const t = setupTestApp();
const other = setupSecondApp(t);

type Headers = Record<string, string>;
type Person = { id: string; email: string; headers: Headers };

/** The app server whose front door is tested, over HTTP; it counts the requests that reach Fastify. */
let door: App;
let base: URL;
let reachedFastify = 0;
let closePool: () => Promise<void>;
beforeAll(async () => {
  const { db, pool } = createDatabase(t.database.url, 3);
  closePool = () => pool.end();
  door = await buildApp({ config: t.config, db, jobs: { recurring: false } });
  door.addHook('onRequest', async () => {
    reachedFastify++;
  });
  base = new URL(await door.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await door?.close();
  await closePool?.();
});

/** An answer over HTTP, the bytes as they came (the Date header aside), and whether Fastify made it. */
function get(path: string, headers: Headers) {
  const before = reachedFastify;
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer; byFastify: boolean }>((resolve, reject) => {
    http
      .get({ host: base.hostname, port: base.port, path, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const { date: _date, ...headersSent } = response.headers;
          resolve({ status: response.statusCode!, headers: headersSent, body: Buffer.concat(chunks), byFastify: reachedFastify > before });
        });
      })
      .on('error', reject);
  });
}

const listOf = (what: 'wishes' | 'booking', owner: { email: string }) => `/api/${what}?email=${encodeURIComponent(owner.email)}`;

async function signedIn(role: 'buyer' | 'seller' | 'admin' = 'buyer'): Promise<Person & { refreshToken: string; sessionId: string }> {
  const user = await createUser(t.db, { role, password: null });
  const { token, sessionId } = await startSession(t.db, user.id);
  const authorization = `bearer ${await t.app.accessTokens.issue({ userId: user.id, sessionId })}`;
  return { ...user, headers: { authorization }, refreshToken: token, sessionId };
}

async function productOf(sellerId: string, productName = 'Oak desk') {
  return createProduct(t.db, { categoryId: (await createCategory(t.db)).id, sellerId }, { productName });
}

const bookingBody = (productId: string) => ({ productId, phoneNumber: '+8801700000000', location: 'Gulshan 2 circle' });

/** A buyer whose wishes list is kept and already went out once, as the front door may send it. */
async function keptWishes({ wished = true } = {}) {
  const me = await signedIn();
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const desk = await productOf(seller.id);
  if (wished) await createWish(t.db, { buyerId: me.id, productId: desk.id });
  const url = listOf('wishes', me);
  const headers = { ...me.headers, 'accept-encoding': 'identity' };
  const first = await get(url, headers);
  expect(first.status).toBe(200);
  const again = await get(url, headers);
  expect(again).toEqual({ ...first, byFastify: false });
  return { me, seller, desk, url, first };
}

describe('the front door, for a buyer’s own kept lists', () => {
  it('sends a kept list again without Fastify, status, headers and bytes as first sent, in each encoding', async () => {
    const me = await signedIn();
    const seller = await createUser(t.db, { role: 'seller', password: null });
    // Enough rows for an answer over the compression threshold.
    for (let index = 0; index < 6; index++) {
      const product = await productOf(seller.id, `Teak sideboard ${index}`);
      await createWish(t.db, { buyerId: me.id, productId: product.id });
      expect((await other.app.inject({ method: 'POST', url: '/api/addBooking', headers: me.headers, payload: bookingBody(product.id) })).statusCode).toBe(201);
    }
    for (const url of [listOf('wishes', me), listOf('booking', me)]) {
      for (const acceptEncoding of ['identity', 'gzip', 'br']) {
        const headers = { ...me.headers, 'accept-encoding': acceptEncoding };
        const first = await get(url, headers);
        expect(first).toMatchObject({ status: 200, byFastify: true });
        for (let again = 0; again < 2; again++) expect(await get(url, headers)).toEqual({ ...first, byFastify: false });

        const decoded = { identity: (body: Buffer) => body, gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync }[acceptEncoding]!(first.body);
        expect(JSON.parse(decoded.toString()).data).toHaveLength(6);
        expect(first.headers['content-encoding']).toBe(acceptEncoding === 'identity' ? undefined : acceptEncoding);
      }
    }
  });

  it('shows a wish or booking added on the hot write path, through this server or another, and an announced change, on the very next read', async () => {
    const { me, seller, desk, url } = await keptWishes();
    const names = async (path: string) => {
      const answer = await get(path, { ...me.headers, 'accept-encoding': 'identity' });
      return JSON.parse(answer.body.toString()).data.map((row: { productName: string }) => row.productName);
    };

    const [bed, chair] = [await productOf(seller.id, 'Pine bed'), await productOf(seller.id, 'Elm chair')];
    expect((await door.inject({ method: 'POST', url: '/api/addWish', headers: me.headers, payload: { productId: bed.id } })).statusCode).toBe(201);
    expect(await names(url)).toEqual(['Pine bed', 'Oak desk']);
    expect(await names(url)).toEqual(['Pine bed', 'Oak desk']);
    expect((await other.app.inject({ method: 'POST', url: '/api/addWish', headers: me.headers, payload: { productId: chair.id } })).statusCode).toBe(201);
    expect(await names(url)).toEqual(['Elm chair', 'Pine bed', 'Oak desk']);
    // Announced: the product's row changes, the buyer's wishes do not.
    await other.app.db.update(products).set({ productName: 'Oak writing desk' }).where(eq(products.id, desk.id));
    expect(await names(url)).toEqual(['Elm chair', 'Pine bed', 'Oak writing desk']);

    const bookings = listOf('booking', me);
    expect(await names(bookings)).toEqual([]);
    expect(await names(bookings)).toEqual([]);
    expect((await door.inject({ method: 'POST', url: '/api/addBooking', headers: me.headers, payload: bookingBody(bed.id) })).statusCode).toBe(201);
    expect(await names(bookings)).toEqual(['Pine bed']);
    expect(await names(bookings)).toEqual(['Pine bed']);
    expect((await other.app.inject({ method: 'POST', url: '/api/addBooking', headers: me.headers, payload: bookingBody(chair.id) })).statusCode).toBe(201);
    expect(await names(bookings)).toEqual(['Elm chair', 'Pine bed']);
  });

  it('leaves to Fastify a buyer signed out on another server (401)', async () => {
    const { me, url } = await keptWishes();
    const signedOut = await other.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: me.refreshToken } });
    expect(signedOut.statusCode).toBe(200);
    expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
  });

  it('leaves to Fastify a buyer suspended by an admin (401)', async () => {
    const { me, url } = await keptWishes();
    const reporter = await signedIn('seller');
    const filed = await other.app.inject({ method: 'POST', url: '/api/reports', headers: reporter.headers, payload: { targetType: 'user', targetId: me.id, reason: 'scam' } });
    expect(filed.statusCode, filed.body).toBe(201);
    const admin = await signedIn('admin');
    const suspended = await other.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${filed.json().data.id}/actions`,
      headers: admin.headers,
      payload: { action: 'suspend', reason: 'Against the rules' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
  });

  it('leaves to Fastify a buyer who is no longer a buyer (403)', async () => {
    const { me, url } = await keptWishes();
    await other.app.db.update(users).set({ role: 'seller' }).where(eq(users.id, me.id));
    expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 403, byFastify: true });
  });

  it('leaves to Fastify an expired or forged token of the owner (401)', async () => {
    // Tokens of the very session the door keeps open.
    const { me, url } = await keptWishes();
    const { sessionId } = me;
    const past = new Date(Date.now() - 2 * ACCESS_TOKEN_MAX_AGE_SECONDS * 1000);
    const expired = await (await createAccessTokens(t.db, { secret: t.config.jwtSecret, now: () => past })).issue({ userId: me.id, sessionId });
    const forged = await (await createAccessTokens(t.db, { secret: 'not the signing key of this marketplace' })).issue({ userId: me.id, sessionId });
    for (const token of [expired, forged]) {
      expect(await get(url, { authorization: `bearer ${token}`, 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
    }
  });

  it('checks a kept session as the access check does: one run out, an account suspended or no longer let in goes to Fastify', async () => {
    for (const [change, status] of [
      [{ sessionEndsAt: Date.now() - 1 }, 200],
      [{ user: { suspendedAt: new Date() } }, 401],
      [{ user: { role: 'seller' } }, 403],
    ] as const) {
      const { me, url, first } = await keptWishes();
      const [key, kept] = [...door.keptSessions].find(([key]) => key.startsWith(`${me.id} `))!;
      const user = 'user' in change ? { ...kept.user, ...change.user } : kept.user;
      door.keptSessions.set(key, { ...kept, ...change, user });
      const answer = await get(url, { ...me.headers, 'accept-encoding': 'identity' });
      expect(answer).toMatchObject({ status, byFastify: true });
      if (status === 200) expect(answer.body).toEqual(first.body);
    }
  });

  it('never sends one buyer’s kept list to another: their own e-mail is another list, the first buyer’s is refused', async () => {
    // Made first: a new account changes `users`, which the kept list also reads. Both lists
    // empty, so their pages' fingerprints alike: only the account tells them apart.
    const them = await signedIn();
    const { me, url } = await keptWishes({ wished: false });
    expect(await get(url, { ...them.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 403, byFastify: true });
    const theirs = await get(listOf('wishes', them), { ...them.headers, 'accept-encoding': 'identity' });
    expect(theirs).toMatchObject({ status: 200, byFastify: true });
    expect(JSON.parse(theirs.body.toString()).data).toEqual([]);
    expect(await get(url, { ...them.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 403, byFastify: true });
    expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 200, byFastify: false });
  });

  it('keeps what an admin reads of a buyer’s list from the front door: the buyer’s own copy is the one it sends them', async () => {
    const me = await signedIn();
    const seller = await createUser(t.db, { role: 'seller', password: null });
    await createWish(t.db, { buyerId: me.id, productId: (await productOf(seller.id)).id });
    const admin = await signedIn('admin');
    const url = listOf('wishes', me);
    const headers = { 'accept-encoding': 'identity' };
    // The buyer's session is kept: only the copy of the list decides.
    expect((await door.inject({ method: 'GET', url: '/api/auth/me', headers: me.headers })).statusCode).toBe(200);
    const byAdmin = await get(url, { ...admin.headers, ...headers });
    expect(byAdmin).toMatchObject({ status: 200, byFastify: true });
    expect(await get(url, { ...admin.headers, ...headers })).toMatchObject({ status: 200, byFastify: true });

    const first = await get(url, { ...me.headers, ...headers });
    expect(first).toMatchObject({ status: 200, byFastify: true, body: byAdmin.body });
    expect(await get(url, { ...me.headers, ...headers })).toEqual({ ...first, byFastify: false });
    expect(await get(url, { ...admin.headers, ...headers })).toMatchObject({ status: 200, byFastify: true });
  });

  it('leaves a request with an Origin to Fastify, which answers its CORS', async () => {
    const { me, url, first } = await keptWishes();
    const fromOrigin = await get(url, { ...me.headers, 'accept-encoding': 'identity', origin: t.config.corsOrigin });
    expect(fromOrigin).toMatchObject({ status: 200, byFastify: true, body: first.body });
    expect(fromOrigin.headers['access-control-allow-origin']).toBe(t.config.corsOrigin);
    expect(first.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the front door, for a kept read that any signed-in person may make', () => {
  /** A category's page, read by a buyer through Fastify, then from the front door. */
  async function keptCategoryPage() {
    const me = await signedIn();
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const desk = await productOf(seller.id);
    const url = `/api/category/${desk.categoryId}`;
    const headers = { ...me.headers, 'accept-encoding': 'identity' };
    const first = await get(url, headers);
    expect(first.status).toBe(200);
    expect(await get(url, headers)).toEqual({ ...first, byFastify: false });
    return { me, desk, url, first };
  }

  it('sends it again without Fastify to each signed-in person whose session the server keeps, and a change on the very next read', async () => {
    const { desk, url, first } = await keptCategoryPage();
    const someoneElse = await signedIn('seller');
    const headers = { ...someoneElse.headers, 'accept-encoding': 'identity' };
    // Their session is looked up once, through Fastify; then it is kept.
    expect(await get(url, headers)).toMatchObject({ status: 200, byFastify: true, body: first.body });
    expect(await get(url, headers)).toEqual({ ...first, byFastify: false });

    await other.app.db.update(products).set({ productName: 'Walnut desk' }).where(eq(products.id, desk.id));
    const changed = await get(url, headers);
    expect(changed).toMatchObject({ status: 200, byFastify: true });
    expect(JSON.parse(changed.body.toString()).products[0].productName).toBe('Walnut desk');
  });

  it('leaves to Fastify a request without a token, with a forged one, or of someone signed out on another server (401)', async () => {
    const { me, url } = await keptCategoryPage();
    expect(await get(url, { 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
    const forged = await (await createAccessTokens(t.db, { secret: 'not the signing key of this marketplace' })).issue({ userId: me.id, sessionId: me.sessionId });
    expect(await get(url, { authorization: `bearer ${forged}`, 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
    const signedOut = await other.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: me.refreshToken } });
    expect(signedOut.statusCode).toBe(200);
    expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status: 401, byFastify: true });
  });

  it('leaves to Fastify a kept session of an account suspended, or one run out', async () => {
    for (const [change, status] of [
      [{ user: { suspendedAt: new Date() } }, 401],
      [{ sessionEndsAt: Date.now() - 1 }, 200],
    ] as const) {
      const { me, url } = await keptCategoryPage();
      const [key, kept] = [...door.keptSessions].find(([key]) => key.startsWith(`${me.id} `))!;
      const user = 'user' in change ? { ...kept.user, ...change.user } : kept.user;
      door.keptSessions.set(key, { ...kept, ...change, user });
      expect(await get(url, { ...me.headers, 'accept-encoding': 'identity' })).toMatchObject({ status, byFastify: true });
    }
  });
});
