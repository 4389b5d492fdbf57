import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_MAX_AGE_SECONDS, trustTexts } from '@furniture/contract';
import { buildApp, type App } from '../app.ts';
import { setupTestApp, testConfig } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { refreshTokens, users } from '../db/schema/index.ts';
import { RATE_LIMITS } from '../http/rate-limit.ts';
import { findUserByEmail } from './user-repository.ts';
import { endAllSessions, REFRESH_COOKIE, REUSE_GRACE_SECONDS } from './refresh-tokens.ts';

const t = setupTestApp();

async function login(email: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_TEST_PASSWORD } });
  expect(response.statusCode).toBe(200);
  return { token: response.json().token as string, cookie: response.cookies.find((c) => c.name === REFRESH_COOKIE)!.value };
}

const refresh = (cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: cookie ? { [REFRESH_COOKIE]: cookie } : {} });

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${token}` } });

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it(`expire after ${ACCESS_TOKEN_MAX_AGE_SECONDS} seconds`, async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    expect((await me(token)).statusCode).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_MAX_AGE_SECONDS + 5) * 1000);
    const expired = await me(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Your session has expired. Sign in again.');
  });

  it('refuses a token whose signature was tampered with, or a token of another algorithm', async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}xx`;
    expect((await me(tampered)).statusCode).toBe(401);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect((await me(unsigned)).statusCode).toBe(401);
  });

  it('stops working when the account is deleted', async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    await t.db.execute(sql`delete from users where id = ${user.id}`);
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('This account no longer exists.');
  });
});

describe('POST /api/auth/refresh', () => {
  it('exchanges the cookie for a new access token and a new cookie', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    const response = await refresh(cookie);
    expect(response.statusCode).toBe(200);
    const next = response.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect(next.value).not.toBe(cookie);
    expect(next).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect((await me(response.json().token)).json().data.email).toBe(user.email);
  });

  it('stores refresh tokens hashed, never as issued', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    const rows = await t.db.select({ tokenHash: refreshTokens.tokenHash }).from(refreshTokens).where(sql`${refreshTokens.userId} = ${user.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toBe(cookie);
  });

  it('renews a used cookie presented again within the grace window, for an answer that was lost', async () => {
    const user = await createUser(t.db);
    const { cookie: first } = await login(user.email);
    const lost = await refresh(first);
    expect(lost.statusCode).toBe(200);

    const retried = await refresh(first);
    expect(retried.statusCode).toBe(200);
    const next = retried.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('answers a replay within the grace window with the same new cookie, so the session never forks', async () => {
    const user = await createUser(t.db);
    const { cookie: first } = await login(user.email);
    const answered = (await refresh(first)).cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    const replayed = (await refresh(first)).cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    expect(replayed).toBe(answered);
    // One chain: its next link used once, then the replayed copy is a reuse like any other.
    const third = (await refresh(answered)).cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    await t.db.execute(
      sql`update refresh_tokens set used_at = now() - make_interval(secs => ${REUSE_GRACE_SECONDS + 1}) where used_at is not null and user_id = ${user.id}`,
    );
    expect((await refresh(replayed)).statusCode).toBe(401);
    expect((await refresh(third)).statusCode).toBe(401);
    const live = await t.db.execute(sql`select count(*)::int as n from refresh_tokens where user_id = ${user.id} and used_at is null and revoked_at is null`);
    expect(live.rows[0]).toEqual({ n: 0 });
  });

  it('revokes the whole session when a used cookie is presented again after the grace window', async () => {
    const user = await createUser(t.db);
    const { cookie: first } = await login(user.email);
    const second = (await refresh(first)).cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    await t.db.execute(
      sql`update refresh_tokens set used_at = now() - make_interval(secs => ${REUSE_GRACE_SECONDS + 1}) where used_at is not null and user_id = ${user.id}`,
    );

    const replay = await refresh(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/used from somewhere else/);
    // The thief's replay also ended the legitimate holder's newer cookie.
    expect((await refresh(second)).statusCode).toBe(401);
  });

  it('answers two simultaneous uses of one cookie with the same new cookie, never a revocation', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    const results = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const [one, other] = results.map((result) => result.cookies.find((c) => c.name === REFRESH_COOKIE)!.value);
    expect(one).toBe(other);
    expect((await refresh(one)).statusCode).toBe(200);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    expect((await refresh()).statusCode).toBe(401);
    expect((await refresh('not-a-real-token')).statusCode).toBe(401);
  });

  it('answers 401 for an expired session', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    await t.db.execute(sql`update refresh_tokens set expires_at = now() - interval '1 minute' where user_id = ${user.id}`);
    expect((await refresh(cookie)).statusCode).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session so its cookie no longer refreshes, and clears the cookie', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBe('');
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it('ends only that session: another device stays signed in', async () => {
    const user = await createUser(t.db);
    const laptop = await login(user.email);
    const phone = await login(user.email);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: laptop.cookie } });
    expect((await refresh(phone.cookie)).statusCode).toBe(200);
  });
});

describe('access tokens of an ended session', () => {
  it('stop working at once when their session signs out, and only theirs', async () => {
    const user = await createUser(t.db);
    const laptop = await login(user.email);
    const phone = await login(user.email);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: laptop.cookie } });
    expect(logout.statusCode).toBe(200);
    const refused = await me(laptop.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('You have signed out. Sign in again.');
    expect((await me(phone.token)).statusCode).toBe(200);
  });

  it('stop working when their session is revoked for a reused refresh token', async () => {
    const user = await createUser(t.db);
    const { token, cookie } = await login(user.email);
    expect((await refresh(cookie)).statusCode).toBe(200);
    await t.db.execute(sql`update refresh_tokens set used_at = now() - interval '1 hour' where user_id = ${user.id} and used_at is not null`);
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('all stop working when every session of the account is ended', async () => {
    const user = await createUser(t.db);
    const [laptop, phone] = [await login(user.email), await login(user.email)];
    await endAllSessions(t.db, user.id);
    for (const device of [laptop, phone]) {
      expect((await me(device.token)).statusCode).toBe(401);
      expect((await refresh(device.cookie)).statusCode).toBe(401);
    }
  });
});

describe('two app servers sharing the database and signing key', () => {
  it('accept each other’s access tokens and refresh cookies, whatever port each answers on', async () => {
    const [east, west] = await Promise.all(
      [5001, 5002].map((port) =>
        buildApp({ config: testConfig({ port, publicUrl: `http://localhost:${port}`, jwtSecret: t.config.jwtSecret }), db: t.db, jobs: { recurring: false } }),
      ),
    );
    try {
      const user = await createUser(t.db);
      const signedIn = await east!.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: DEFAULT_TEST_PASSWORD } });
      const cookie = signedIn.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
      const meOn = (app: App, token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${token}` } });
      expect((await meOn(west!, signedIn.json().token)).statusCode).toBe(200);

      const refreshed = await west!.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
      expect(refreshed.statusCode).toBe(200);
      expect((await meOn(east!, refreshed.json().token)).statusCode).toBe(200);

      const nextCookie = refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
      await east!.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: nextCookie } });
      expect((await meOn(west!, refreshed.json().token)).statusCode).toBe(401);
    } finally {
      await Promise.all([east?.close(), west?.close()]);
    }
  });
});

describe('a session another app server has already checked', () => {
  // The second server keeps the sessions it has found open; an end committed through the first
  // must still be refused there on the very next request.
  let second: App;
  beforeAll(async () => {
    second = await buildApp({ config: t.config, db: t.db, jobs: { recurring: false } });
    await second.ready();
  });
  afterAll(() => second?.close());
  const meOnSecond = (token: string) => second.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${token}` } });

  it('is refused there at once after signing out through the first', async () => {
    const user = await createUser(t.db);
    const laptop = await login(user.email);
    const phone = await login(user.email);
    expect((await meOnSecond(laptop.token)).statusCode).toBe(200);
    expect((await meOnSecond(phone.token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: laptop.cookie } });
    const refused = await meOnSecond(laptop.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('You have signed out. Sign in again.');
    expect((await meOnSecond(phone.token)).statusCode).toBe(200);
  });

  it('is refused there at once when the account is suspended, even before its sessions end', async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    expect((await meOnSecond(token)).statusCode).toBe(200);
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, user.id));
    const refused = await meOnSecond(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(trustTexts.accountSuspended);
  });

  it('is refused there at once when the account is deleted', async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    expect((await meOnSecond(token)).statusCode).toBe(200);
    await t.db.execute(sql`delete from users where id = ${user.id}`);
    const refused = await meOnSecond(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('This account no longer exists.');
  });

  it('is refused there at once when the session is revoked for a reused refresh token, not when it is renewed', async () => {
    const user = await createUser(t.db);
    const { token, cookie } = await login(user.email);
    expect((await meOnSecond(token)).statusCode).toBe(200);
    expect((await refresh(cookie)).statusCode).toBe(200);
    expect((await meOnSecond(token)).statusCode).toBe(200);
    await t.db.execute(sql`update refresh_tokens set used_at = now() - interval '1 hour' where user_id = ${user.id} and used_at is not null`);
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect((await meOnSecond(token)).statusCode).toBe(401);
  });

  it('is refused there once its access token expires, though its signature was checked there before', async () => {
    const user = await createUser(t.db);
    const { token } = await login(user.email);
    expect((await meOnSecond(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_MAX_AGE_SECONDS + 5) * 1000);
    const expired = await meOnSecond(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Your session has expired. Sign in again.');
  });

  it('shows a renamed account there at once', async () => {
    const user = await createUser(t.db, { name: 'Before' });
    const { token } = await login(user.email);
    expect((await meOnSecond(token)).json().data.name).toBe('Before');
    await t.db.update(users).set({ name: 'After' }).where(eq(users.id, user.id));
    expect((await meOnSecond(token)).json().data.name).toBe('After');
  });
});

describe('POST /api/getToken', () => {
  it('issues a token to the caller holding that account’s session cookie', async () => {
    const user = await createUser(t.db);
    const { cookie } = await login(user.email);
    const response = await t.app.inject({ method: 'POST', url: '/api/getToken', payload: { email: user.email }, cookies: { [REFRESH_COOKIE]: cookie } });
    expect(response.statusCode).toBe(200);
    expect((await t.app.accessTokens.verify(response.json().token)).userId).toBe(user.id);
  });

  it('never issues a token for an e-mail alone', async () => {
    const user = await createUser(t.db);
    const response = await t.app.inject({ method: 'POST', url: '/api/getToken', payload: { email: user.email } });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a caller whose session belongs to another account', async () => {
    const [alice, bob] = [await createUser(t.db), await createUser(t.db)];
    const { cookie, token } = await login(alice.email);
    const byCookie = await t.app.inject({ method: 'POST', url: '/api/getToken', payload: { email: bob.email }, cookies: { [REFRESH_COOKIE]: cookie } });
    expect(byCookie.statusCode).toBe(403);
    const byToken = await t.app.inject({ method: 'POST', url: '/api/getToken', payload: { email: bob.email }, headers: { authorization: `bearer ${token}` } });
    expect(byToken.statusCode).toBe(403);
  });

  it('leaves the session cookie as it was when it refuses', async () => {
    const [alice, bob] = [await createUser(t.db), await createUser(t.db)];
    const { cookie } = await login(alice.email);
    const refused = await t.app.inject({ method: 'POST', url: '/api/getToken', payload: { email: bob.email }, cookies: { [REFRESH_COOKIE]: cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
    // The cookie was not used up: no token of the session has been used yet.
    const used = await t.db.select().from(refreshTokens).where(sql`${refreshTokens.userId} = ${alice.id} and ${refreshTokens.usedAt} is not null`);
    expect(used).toHaveLength(0);
    expect((await refresh(cookie)).statusCode).toBe(200);
  });
});

const profile = (email: string, userRole = 'buyer') => ({ name: 'Karim', email, image: 'https://images.example.com/k.webp', userRole });

describe('POST /api/userAddToDb', () => {
  const profileCount = async () => (await t.db.select().from(users)).length;

  it('creates nothing for a caller who has not proven the e-mail, so a later sign-up is a plain new account', async () => {
    const before = await profileCount();
    const squatted = await t.app.inject({ method: 'POST', url: '/api/userAddToDb', payload: profile('victim@example.com', 'seller') });
    expect(squatted.statusCode).toBe(401);
    expect(squatted.json().message).toBe('Sign up or sign in first: only your own profile can be saved.');
    expect(await profileCount()).toBe(before);

    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { ...profile('victim@example.com', 'buyer'), password: 'Secret123' },
    });
    expect(signup.statusCode).toBe(201);
    expect((await me(signup.json().token)).json().data).toMatchObject({ userRole: 'buyer', verified: false });
  });

  it('can never create an admin', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/userAddToDb', payload: profile('want-admin@example.com', 'admin') });
    expect(response.statusCode).toBe(400);
  });

  it('never changes an existing account, whoever asks', async () => {
    const user = await createUser(t.db, { role: 'buyer', name: 'Original' });
    const other = await createUser(t.db, { role: 'seller' });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/userAddToDb', payload: { ...profile(user.email, 'seller'), name: 'Changed' } });
    expect(anonymous.statusCode).toBe(401);
    const byOther = await t.app.inject({
      method: 'POST',
      url: '/api/userAddToDb',
      payload: { ...profile(user.email, 'seller'), name: 'Changed' },
      headers: { authorization: `bearer ${(await login(other.email)).token}` },
    });
    expect(byOther.statusCode).toBe(403);
    const { token } = await login(user.email);
    expect((await me(token)).json().data).toMatchObject({ name: 'Original', userRole: 'buyer' });
  });

  it('confirms the owner’s own profile without changing it, by access token or by the session cookie of sign-up', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { ...profile('own-profile@example.com', 'seller'), password: 'Secret123' },
    });
    const token: string = signup.json().token;
    const cookie = signup.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    const byToken = await t.app.inject({
      method: 'POST',
      url: '/api/userAddToDb',
      payload: profile('own-profile@example.com', 'buyer'),
      headers: { authorization: `bearer ${token}` },
    });
    expect(byToken.statusCode).toBe(200);
    // The specification's client calls it without a token, right after signing up.
    const byCookie = await t.app.inject({
      method: 'POST',
      url: '/api/userAddToDb',
      payload: profile('own-profile@example.com', 'buyer'),
      cookies: { [REFRESH_COOKIE]: cookie },
    });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
    expect((await me(token)).json().data.userRole).toBe('seller');
    expect((await refresh(cookie)).statusCode).toBe(200);
  });
});

describe('sign-ups per address', () => {
  it(`are limited to ${RATE_LIMITS.signUpsPerAddress.max} an hour, with 429 and Retry-After`, async () => {
    const address = '203.0.113.77';
    const signUp = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: address,
        payload: { ...profile(`many-${i}@example.com`), password: 'Secret123' },
      });
    for (let i = 0; i < RATE_LIMITS.signUpsPerAddress.max; i++) expect((await signUp(i)).statusCode).toBe(201);
    const refused = await signUp(999);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many sign-ups from this address. Try again in 60 minutes.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await findUserByEmail(t.db, 'many-999@example.com')).toBeUndefined();
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: '203.0.113.78',
      payload: { ...profile('elsewhere@example.com'), password: 'Secret123' },
    });
    expect(elsewhere.statusCode).toBe(201);
  });
});
