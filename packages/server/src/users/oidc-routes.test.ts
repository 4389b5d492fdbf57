import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { messages, oidcPopupResult, type OidcPopupResult, secondStepTexts, serverMessages } from '@furniture/contract';
import { setupTestApp, testConfig } from '../../test/app.ts';
import { newIssuerAccount, startOidcIssuer, type TestIssuer } from '../../test/oidc-issuer.ts';
import { buildApp, type App } from '../app.ts';
import { createUser, DEFAULT_TEST_PASSWORD, TEST_TOTP_SECRET } from '../demo/factories.ts';
import { userIdentities, users } from '../db/schema/index.ts';
import { LOGIN_THROTTLE } from './login-throttle.ts';

const publicUrl = 'http://localhost:5000';
const callbackUrl = `${publicUrl}/api/auth/oidc/callback`;

// The provider must exist before the app is configured with it, so it starts at import time.
const issuer: TestIssuer = await startOidcIssuer({ redirectUris: [callbackUrl] });
afterAll(() => issuer.close());

const t = setupTestApp({
  publicUrl,
  oidc: { issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
});

type Cookies = Record<string, string>;

function cookiesOf(response: { cookies: Array<{ name: string; value: string }> }, into: Cookies = {}): Cookies {
  for (const cookie of response.cookies) {
    if (cookie.value) into[cookie.name] = cookie.value;
    else delete into[cookie.name];
  }
  return into;
}

/** What the popup page posts to its opener, read from the page. */
function popupResult(html: string): OidcPopupResult {
  const json = /<script type="application\/json" id="oidc-result">([^<]*)<\/script>/.exec(html)?.[1];
  return oidcPopupResult.parse(JSON.parse(json!));
}

/**
 * Walks the provider's side of the flow as a browser would: follows its redirects with a cookie
 * jar of its own (a fresh one each time, so each flow is a new login at the provider) until it
 * is sent back to the app's callback.
 */
async function throughProvider(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hops = 0; hops < 10 && !url.startsWith(publicUrl); hops += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  return url;
}

/** One whole sign-in through the popup: /start, the provider, /callback. */
async function signInWithProvider(app: App = t.app) {
  const start = await app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
  expect(start.statusCode).toBe(303);
  const cookies = cookiesOf(start);
  const attemptCookies = { ...cookies };
  const callback = await throughProvider(start.headers.location as string);
  expect(callback.startsWith(`${callbackUrl}?`)).toBe(true);
  const page = await app.inject({ method: 'GET', url: callback.slice(publicUrl.length), cookies });
  cookiesOf(page, cookies);
  return { page, result: popupResult(page.body), cookies, callback, attemptCookies };
}

async function refresh(cookies: Cookies, app: App = t.app) {
  return app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { furniture_refresh: cookies.furniture_refresh ?? '' } });
}

async function me(token: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${token}` } });
  return response.json().data;
}

describe('GET /api/auth/oidc/start', () => {
  it('redirects to the provider with PKCE (S256), state, nonce and the app’s callback, kept in a signed httpOnly cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(response.statusCode).toBe(303);
    expect(response.headers['cache-control']).toBe('no-store');
    const location = new URL(response.headers.location as string);
    expect(location.origin).toBe(issuer.issuer);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: issuer.clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: callbackUrl,
      code_challenge_method: 'S256',
    });
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(params.state).toMatch(/^[\w-]{20,}$/);
    expect(params.nonce).toMatch(/^[\w-]{20,}$/);

    const cookie = response.cookies.find((c) => c.name === 'furniture_oidc')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc', maxAge: 600 });
    // Signed: the value is followed by its signature.
    expect(cookie.value).toMatch(/^[\w-]+\.[\w+/=-]+$/);
  });
});

describe('Google sign-in through a real OpenID provider', () => {
  it('creates a buyer account on the first sign-in, with the provider’s name and picture, unverified', async () => {
    issuer.account = newIssuerAccount({ name: 'Nadia Rahman' });
    const { page, result, cookies } = await signInWithProvider();
    expect(page.statusCode).toBe(200);
    expect(result).toEqual({ type: 'oidc-result', ok: true, message: messages.signInSuccess });
    expect(page.cookies.find((c) => c.name === 'furniture_refresh')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
    // The attempt cookie is used up.
    expect(cookies.furniture_oidc).toBeUndefined();

    const session = await refresh(cookies);
    expect(session.statusCode).toBe(200);
    expect(await me(session.json().token)).toMatchObject({
      name: 'Nadia Rahman',
      email: issuer.account.email,
      image: issuer.account.picture,
      userRole: 'buyer',
      verified: false,
      // The provider verified the e-mail.
      emailVerified: true,
    });
    const [user] = await t.db.select().from(users).where(eq(users.email, issuer.account.email));
    expect(user!.passwordHash).toBeNull();
    const identities = await t.db.select().from(userIdentities).where(eq(userIdentities.userId, user!.id));
    expect(identities).toMatchObject([{ issuer: issuer.issuer, subject: issuer.account.sub }]);
  });

  it('finds the account by issuer and subject on later sign-ins, even after the e-mail changed at the provider', async () => {
    issuer.account = newIssuerAccount();
    const first = await signInWithProvider();
    const firstUser = await me((await refresh(first.cookies)).json().token);

    issuer.account = { ...issuer.account, email: `renamed-${issuer.account.email}`, name: 'Another Name' };
    const second = await signInWithProvider();
    expect(second.result.ok).toBe(true);
    const secondUser = await me((await refresh(second.cookies)).json().token);
    expect(secondUser._id).toBe(firstUser._id);
    expect(secondUser.email).toBe(firstUser.email);
    expect(await t.db.select().from(users).where(eq(users.email, issuer.account.email))).toEqual([]);
  });

  it('does not sign in to an existing password account by e-mail: it links only after the right password', async () => {
    const owner = await createUser(t.db, { email: 'owner@example.com', role: 'seller' });
    issuer.account = newIssuerAccount({ email: 'Owner@example.com', email_verified: true });

    const { page, result, cookies } = await signInWithProvider();
    expect(page.statusCode).toBe(409);
    expect(result).toMatchObject({ type: 'oidc-result', ok: false, linkRequired: true });
    expect(result.message).toMatch(/Enter its password/);
    expect(cookies.furniture_refresh).toBeUndefined();
    const linkCookie = page.cookies.find((c) => c.name === 'furniture_oidc_link')!;
    expect(linkCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/oidc' });
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, owner.id))).toEqual([]);

    const link = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/oidc/link', payload: { password }, cookies: { furniture_oidc_link: linkCookie.value } });

    const wrong = await link('Wrong123');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ success: false, message: 'Wrong password.' });
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, owner.id))).toEqual([]);

    const right = await link(DEFAULT_TEST_PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ success: true, message: messages.signInSuccess });
    expect((await t.app.accessTokens.verify(right.json().token)).userId).toBe(owner.id);
    expect(right.cookies.find((c) => c.name === 'furniture_refresh')?.value).toBeTruthy();
    expect(right.cookies.find((c) => c.name === 'furniture_oidc_link')?.value).toBe('');
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, owner.id))).toMatchObject([
      { issuer: issuer.issuer, subject: issuer.account.sub },
    ]);

    // From now on the identity signs straight in, as the seller it was linked to.
    const again = await signInWithProvider();
    expect(again.result.ok).toBe(true);
    expect(await me((await refresh(again.cookies)).json().token)).toMatchObject({ _id: owner.id, userRole: 'seller' });
  });

  it('asks an account with an authenticator app for a code after Google too, linking or signing in, with no session before it', async () => {
    const owner = await createUser(t.db, { email: 'two-step@example.com', totpSecret: TEST_TOTP_SECRET });
    issuer.account = newIssuerAccount({ email: owner.email, email_verified: true });
    const first = await signInWithProvider();
    const linked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/link',
      payload: { password: DEFAULT_TEST_PASSWORD },
      cookies: { furniture_oidc_link: first.cookies.furniture_oidc_link! },
    });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ secondStepNeeded: true, message: secondStepTexts.server.needed });
    expect(linked.json().token).toBeUndefined();
    expect(linked.cookies.find((c) => c.name === 'furniture_refresh')).toBeUndefined();

    const again = await signInWithProvider();
    expect(again.page.statusCode).toBe(200);
    expect(again.result).toMatchObject({ ok: false, message: secondStepTexts.server.needed });
    expect(again.cookies.furniture_refresh).toBeUndefined();
    const code = await generate({ secret: TEST_TOTP_SECRET, epoch: Math.floor(Date.now() / 1000) });
    const finished = await t.app.inject({ method: 'POST', url: '/api/auth/second-step', payload: { challenge: again.result.secondStepChallenge, code } });
    expect(finished.statusCode).toBe(200);
    expect((await t.app.accessTokens.verify(finished.json().token)).userId).toBe(owner.id);
  });

  it('limits password guesses on the link like sign-in does', async () => {
    const owner = await createUser(t.db, { email: 'guarded@example.com' });
    issuer.account = newIssuerAccount({ email: owner.email });
    const { cookies } = await signInWithProvider();
    const link = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/oidc/link',
        payload: { password },
        cookies: { furniture_oidc_link: cookies.furniture_oidc_link! },
        remoteAddress: '10.9.8.7',
      });
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress; i += 1) expect((await link('Wrong123')).statusCode).toBe(401);
    const blocked = await link(DEFAULT_TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('refuses to link when the provider has not verified the e-mail', async () => {
    await createUser(t.db, { email: 'unverified-owner@example.com' });
    issuer.account = newIssuerAccount({ email: 'unverified-owner@example.com', email_verified: false });
    const { page, result, cookies } = await signInWithProvider();
    expect(page.statusCode).toBe(409);
    expect(result).toEqual({ type: 'oidc-result', ok: false, message: 'An account with this e-mail already exists. Sign in with its e-mail and password.' });
    expect(cookies.furniture_oidc_link).toBeUndefined();
    expect(cookies.furniture_refresh).toBeUndefined();
  });

  it('answers /link without a pending identity with 400', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/link', payload: { password: DEFAULT_TEST_PASSWORD } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/no Google sign-in waiting/);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/link',
      payload: { password: DEFAULT_TEST_PASSWORD },
      cookies: { furniture_oidc_link: 'eyJ1c2VySWQiOiJ4In0.forged' },
    });
    expect(forged.statusCode).toBe(400);
  });

  it('refuses a callback whose state is not the one of this browser’s attempt', async () => {
    issuer.account = newIssuerAccount();
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    const callback = new URL(await throughProvider(start.headers.location as string));
    const before = (await t.db.select().from(users)).length;

    callback.searchParams.set('state', 'someone-elses-state');
    const tampered = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search, cookies: cookiesOf(start) });
    expect(tampered.statusCode).toBe(400);
    expect(popupResult(tampered.body)).toEqual({
      type: 'oidc-result',
      ok: false,
      message: 'This sign-in attempt has expired or was started in another window. Try again.',
    });
    expect(tampered.cookies.find((c) => c.name === 'furniture_refresh')).toBeUndefined();

    // An attempt cookie rewritten to carry the tampered state fails its signature.
    const [value, signature] = cookiesOf(start).furniture_oidc!.split('.');
    const attempt = JSON.parse(Buffer.from(value!, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...attempt, state: 'someone-elses-state' })).toString('base64url')}.${signature}`;
    const forgedPage = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search, cookies: { furniture_oidc: forged } });
    expect(forgedPage.statusCode).toBe(400);
    expect(popupResult(forgedPage.body).ok).toBe(false);

    // Without the attempt cookie (another browser), the provider's answer is refused as well.
    const stray = await t.app.inject({ method: 'GET', url: new URL(await throughProvider(start.headers.location as string)).href.slice(publicUrl.length) });
    expect(stray.statusCode).toBe(400);
    expect(popupResult(stray.body).ok).toBe(false);
    expect((await t.db.select().from(users)).length).toBe(before);
  });

  it('refuses a code used twice, even with the attempt cookie it came with', async () => {
    issuer.account = newIssuerAccount();
    const first = await signInWithProvider();
    expect(first.result.ok).toBe(true);
    const replay = await t.app.inject({ method: 'GET', url: first.callback.slice(publicUrl.length), cookies: first.attemptCookies });
    expect(replay.statusCode).toBe(400);
    expect(popupResult(replay.body)).toEqual({ type: 'oidc-result', ok: false, message: 'Google sign-in could not be completed. Try again.' });
    expect(replay.cookies.find((c) => c.name === 'furniture_refresh')).toBeUndefined();
  });

  it('tells the popup when the person cancelled at the provider', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const query = new URLSearchParams({ error: 'access_denied', state, iss: issuer.issuer });
    const page = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/callback?${query}`, cookies: cookiesOf(start) });
    expect(page.statusCode).toBe(400);
    expect(popupResult(page.body)).toEqual({ type: 'oidc-result', ok: false, message: 'Google sign-in was cancelled.' });
  });

  it('answers a page whose only script is allowed by its hash in the Content-Security-Policy', async () => {
    issuer.account = newIssuerAccount();
    const { page } = await signInWithProvider();
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(scripts[0]).toContain('window.opener.postMessage(result, location.origin)');
  });
});

describe('Google sign-in with a provider that puts the profile in userinfo only', () => {
  let userinfoIssuer: TestIssuer;
  let app: App;
  beforeAll(async () => {
    userinfoIssuer = await startOidcIssuer({ redirectUris: [callbackUrl], claimsInIdToken: false });
    app = await buildApp({
      config: testConfig({
        publicUrl,
        oidc: { issuer: userinfoIssuer.issuer, clientId: userinfoIssuer.clientId, clientSecret: userinfoIssuer.clientSecret },
      }),
      db: t.db,
    });
  });
  afterAll(async () => {
    await app?.close();
    await userinfoIssuer?.close();
  });

  it('reads e-mail, name and picture from userinfo', async () => {
    userinfoIssuer.account = newIssuerAccount({ name: 'Userinfo Person' });
    const { result, cookies } = await signInWithProvider(app);
    expect(result.ok).toBe(true);
    const token = (await refresh(cookies, app)).json().token;
    const user = await me(token);
    expect(user).toMatchObject({ email: userinfoIssuer.account.email, name: 'Userinfo Person', userRole: 'buyer' });
    const identity = await t.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, userinfoIssuer.issuer), eq(userIdentities.subject, userinfoIssuer.account.sub)));
    expect(identity).toHaveLength(1);
  });
});

describe('the provider’s discovery document', () => {
  it('is fetched once per app instance', async () => {
    issuer.account = newIssuerAccount();
    expect((await signInWithProvider()).result.ok).toBe(true);
    expect((await signInWithProvider()).result.ok).toBe(true);
    expect(issuer.discoveryRequests).toBe(1);
  });

  it('is fetched again after a failure, and a provider that cannot be reached is reported in the popup', async () => {
    const unreachable = await startOidcIssuer({ redirectUris: [callbackUrl] });
    const settings = { issuer: unreachable.issuer, clientId: unreachable.clientId, clientSecret: unreachable.clientSecret };
    await unreachable.close();
    const app = await buildApp({ config: testConfig({ publicUrl, oidc: settings }), db: t.db });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
        expect(response.statusCode).toBe(503);
        expect(popupResult(response.body)).toEqual({
          type: 'oidc-result',
          ok: false,
          message: 'Google sign-in is not available right now. Try again later.',
        });
      }
    } finally {
      await app.close();
    }
  });
});

describe('without OIDC_CLIENT_ID', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig({ publicUrl, oidc: undefined }), db: t.db });
  });
  afterAll(() => app?.close());

  it('answers /start with 404 and says Google sign-in is not set up', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(response.statusCode).toBe(404);
    expect(popupResult(response.body)).toEqual({ type: 'oidc-result', ok: false, message: serverMessages.google.notSetUp });
    expect(response.body).toContain(serverMessages.google.notSetUp);
    const config = await app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json().data.googleSignIn).toBe(false);
  });
});
