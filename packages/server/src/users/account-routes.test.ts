import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTexts, messages } from '@furniture/contract';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../test/smtp-server.ts';
import type { Config } from '../config.ts';
import { createCategory, createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { accountTokens, users } from '../db/schema/index.ts';
import { nextOutcome } from '../jobs/job-clock.ts';
import { RATE_LIMITS } from '../http/rate-limit.ts';
import { passwordResetMailTask } from './account-mail.ts';
import { REFRESH_COOKIE } from './refresh-tokens.ts';

/** Resetting a password and verifying an e-mail, with the links read from e-mails a real SMTP server received. */

let smtp: TestSmtpServer;
const settings: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  settings.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp?.close());
const t = setupTestApp(settings);
const other = setupSecondApp(t);

let addressCounter = 0;
/** A distinct client address per test: the per-address limits stay out of tests about others. */
const nextAddress = () => `10.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

const post = (url: string, payload: Record<string, unknown>, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: extra.remoteAddress ?? nextAddress(), headers: extra.headers });

const login = (email: string, password: string) => post('/api/auth/login', { email, password });

/** The mail for `address` with this subject, once it arrives. */
async function mailTo(address: string, subject: string): Promise<ReceivedMail> {
  await expect
    .poll(() => smtp.received.some((mail) => mail.envelope.to.includes(address) && mail.message.subject === subject), { timeout: 10_000 })
    .toBe(true);
  return smtp.received.findLast((mail) => mail.envelope.to.includes(address) && mail.message.subject === subject)!;
}

/** The token of the app link `path` in a mail's plain text. */
function linkToken(mail: ReceivedMail, path: string): string {
  const found = new RegExp(`${t.config.publicUrl}${path}\\?token=([\\w-]+)`).exec(mail.message.text ?? '');
  expect(found, mail.message.text).not.toBeNull();
  return found![1]!;
}

async function resetLinkFor(email: string): Promise<string> {
  const response = await post('/api/auth/forgot-password', { email });
  expect(response.statusCode).toBe(200);
  return linkToken(await mailTo(email, accountTexts.mail.resetSubject), '/reset-password');
}

const me = (app: typeof t.app, token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${token}` } });

describe('POST /api/auth/forgot-password', () => {
  it('e-mails a known account a link, and answers an unknown address exactly the same without sending anything', async () => {
    const user = await createUser(t.db);
    const known = await post('/api/auth/forgot-password', { email: user.email.toUpperCase() });
    const mail = await mailTo(user.email, accountTexts.mail.resetSubject);
    expect(mail.message.text).toContain(accountTexts.mail.resetAction);
    linkToken(mail, '/reset-password');

    // Either server's worker may take the job.
    const handled = Promise.race([t.app, other.app].map((app) => nextOutcome(app, (outcome) => outcome.task === passwordResetMailTask.name)));
    const unknown = await post('/api/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(await handled).toMatchObject({ status: 'succeeded' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({ success: true, message: accountTexts.server.resetLinkSent });
    expect(smtp.received.some((received) => received.envelope.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('stores the link’s token only as a hash', async () => {
    const user = await createUser(t.db);
    const token = await resetLinkFor(user.email);
    const stored = await t.db.select({ tokenHash: accountTokens.tokenHash }).from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
  });

  it('limits the links per e-mail, known or not, and per address', async () => {
    const { max } = RATE_LIMITS.resetLinksPerEmail;
    for (const email of [(await createUser(t.db)).email, 'unknown-limited@example.com']) {
      for (let i = 0; i < max; i++) expect((await post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
      const refused = await post('/api/auth/forgot-password', { email });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(new RegExp(`^${accountTexts.server.tooManyResetLinks} Try again in`));
    }
    const remoteAddress = nextAddress();
    for (let i = 0; i < RATE_LIMITS.resetLinksPerAddress.max; i++) {
      expect((await post('/api/auth/forgot-password', { email: `someone-${i}@example.com` }, { remoteAddress })).statusCode).toBe(200);
    }
    expect((await post('/api/auth/forgot-password', { email: 'one-more@example.com' }, { remoteAddress })).statusCode).toBe(429);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password, ends every session on every server, and signs in', async () => {
    const user = await createUser(t.db);
    const before = (await login(user.email, DEFAULT_TEST_PASSWORD)).json().token as string;
    // The other server has found the old session open and keeps it.
    expect((await me(other.app, before)).statusCode).toBe(200);

    const reset = await post('/api/auth/reset-password', { token: await resetLinkFor(user.email), password: 'NewSecret456' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ success: true, message: accountTexts.server.passwordReset });
    expect(reset.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeDefined();
    expect((await me(t.app, reset.json().token)).json().data.email).toBe(user.email);

    for (const app of [t.app, other.app]) expect((await me(app, before)).statusCode).toBe(401);
    expect((await login(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'NewSecret456')).statusCode).toBe(200);
  });

  it('refuses a used link, and the older links once one was used', async () => {
    const user = await createUser(t.db);
    const older = await resetLinkFor(user.email);
    const token = await resetLinkFor(user.email);
    expect((await post('/api/auth/reset-password', { token, password: 'NewSecret456' })).statusCode).toBe(200);
    for (const used of [token, older]) {
      const again = await post('/api/auth/reset-password', { token: used, password: 'Other789X' });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(accountTexts.server.linkUsed);
    }
    expect((await login(user.email, 'NewSecret456')).statusCode).toBe(200);
  });

  it('refuses a link after an hour, and a forged one', async () => {
    const user = await createUser(t.db);
    const token = await resetLinkFor(user.email);
    await t.db.update(accountTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(accountTokens.userId, user.id));
    const expired = await post('/api/auth/reset-password', { token, password: 'NewSecret456' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(accountTexts.server.linkExpired);

    const forged = await post('/api/auth/reset-password', { token: `${token.slice(0, -2)}xx`, password: 'NewSecret456' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(accountTexts.server.linkInvalid);
    expect((await login(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('applies the sign-up rules to the password, and leaves the link usable', async () => {
    const user = await createUser(t.db);
    const token = await resetLinkFor(user.email);
    const weak = await post('/api/auth/reset-password', { token, password: 'weakpass' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.map((error: { message: string }) => error.message)).toContain(messages.passwordTooWeak);
    expect((await post('/api/auth/reset-password', { token, password: 'NewSecret456' })).statusCode).toBe(200);
  });

  it('lets an account made with Google set its first password', async () => {
    const user = await createUser(t.db, { password: null });
    const reset = await post('/api/auth/reset-password', { token: await resetLinkFor(user.email), password: 'FirstPass123' });
    expect(reset.statusCode).toBe(200);
    expect((await login(user.email, 'FirstPass123')).statusCode).toBe(200);
  });

  it('refuses a link sent to an e-mail the account no longer has', async () => {
    const user = await createUser(t.db);
    const token = await resetLinkFor(user.email);
    await t.db.update(users).set({ email: `moved-${user.email}` }).where(eq(users.id, user.id));
    const refused = await post('/api/auth/reset-password', { token, password: 'NewSecret456' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(accountTexts.server.linkInvalid);
  });
});

describe('e-mail verification', () => {
  const signUp = async (userRole: 'buyer' | 'seller') => {
    const email = `verify-${userRole}-${++addressCounter}@example.com`;
    const response = await post('/api/auth/signup', {
      name: 'Nadia',
      email,
      password: 'Secret123',
      image: 'https://images.example.com/nadia.webp',
      userRole,
    });
    expect(response.statusCode).toBe(201);
    return { email, headers: { authorization: `bearer ${response.json().token}` } };
  };
  const addProduct = async (headers: Record<string, string>) =>
    post(
      '/api/addProduct',
      {
        categoryId: (await createCategory(t.db)).id,
        condition: 'Good',
        productName: 'Oak table',
        yearsOfUsedProduct: '2',
        originalPrice: 300,
        resalePrice: 120,
        description: 'Solid oak',
        phone: '5551234',
        location: 'Dhaka',
        productImage: 'https://images.example.com/table.webp',
      },
      { headers },
    );

  it('e-mails a link at sign-up; until it is opened the seller cannot publish, then can', async () => {
    const { email, headers } = await signUp('seller');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).json().data.emailVerified).toBe(false);
    const refused = await addProduct(headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(accountTexts.server.verifyToPublish);

    const token = linkToken(await mailTo(email, accountTexts.mail.verifySubject), '/verify-email');
    const verified = await post('/api/auth/verify-email', { token });
    expect(verified.json()).toEqual({ success: true, message: accountTexts.server.emailVerified });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).json().data.emailVerified).toBe(true);
    expect((await addProduct(headers)).statusCode).toBe(201);

    const again = await post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(accountTexts.server.linkUsed);
  });

  it('keeps an unverified buyer from paying, saying why', async () => {
    const { headers } = await signUp('buyer');
    const refused = await post('/api/create-payment-intent', { bookingId: '00000000-0000-4000-8000-000000000000' }, { headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(accountTexts.server.verifyToPay);
  });

  it('refuses a forged link, and a reset link used to verify', async () => {
    const user = await createUser(t.db, { emailVerified: false });
    const resetToken = await resetLinkFor(user.email);
    for (const token of ['forged-token', resetToken]) {
      const refused = await post('/api/auth/verify-email', { token });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(accountTexts.server.linkInvalid);
    }
    const [row] = await t.db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, user.id));
    expect(row!.emailVerified).toBe(false);
  });

  it('sends the link again when asked, a few times an hour', async () => {
    const { email, headers } = await signUp('buyer');
    await mailTo(email, accountTexts.mail.verifySubject);
    const send = () => post('/api/auth/verify-email/send', {}, { headers });
    for (let i = 0; i < RATE_LIMITS.verifyLinksPerAccount.max; i++) {
      expect((await send()).json()).toEqual({ success: true, message: accountTexts.server.verifyLinkSent });
    }
    await expect
      .poll(() => smtp.received.filter((mail) => mail.envelope.to.includes(email)).length, { timeout: 10_000 })
      .toBe(1 + RATE_LIMITS.verifyLinksPerAccount.max);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(new RegExp(`^${accountTexts.server.tooManyVerifyLinks} Try again in`));
  });

  it('marks a password reset’s e-mail verified: the link proved it', async () => {
    const user = await createUser(t.db, { emailVerified: false });
    await post('/api/auth/reset-password', { token: await resetLinkFor(user.email), password: 'NewSecret456' });
    const [row] = await t.db.select({ emailVerified: users.emailVerified }).from(users).where(and(eq(users.id, user.id)));
    expect(row!.emailVerified).toBe(true);
  });
});
