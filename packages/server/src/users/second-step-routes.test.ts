import { RECOVERY_CODE_COUNT, secondStepTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import type { Config } from '../config.ts';
import { passkeys, recoveryCodes, users } from '../db/schema/index.ts';
import { createUser, DEFAULT_TEST_PASSWORD, TEST_TOTP_SECRET } from '../demo/factories.ts';

/** Two-step sign-in with an authenticator app and recovery codes, and the admin pages that need it (decision 38). */

let smtp: TestSmtpServer;
const settings: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  settings.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp?.close());
const t = setupTestApp(settings);
const { server, mail } = secondStepTexts;

/** The code the app shows `steps` periods of 30 seconds from now (a step either way is accepted). */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

const login = (email: string, remoteAddress = '203.0.113.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_TEST_PASSWORD }, remoteAddress });
const secondStep = (payload: Record<string, string>, remoteAddress = '203.0.113.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/second-step', payload, remoteAddress });
const adminPage = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/audit', headers });
const asBearer = (token: string) => ({ authorization: `bearer ${token}` });

const mailsTo = (address: string, subject: string) => smtp.received.filter((received) => received.envelope.to.includes(address) && received.message.subject === subject);

/** Sets up the authenticator app for the account through Settings; answers its secret and recovery codes. */
async function enrol(headers: Record<string, string>) {
  const started = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp', headers });
  expect(started.statusCode).toBe(200);
  const { secret, uri } = started.json().data;
  expect(uri).toContain(`secret=${secret}`);
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp/confirm', headers, payload: { code: await codeOf(secret) } });
  expect(confirmed.statusCode).toBe(200);
  return { secret: secret as string, recoveryCodes: confirmed.json().data.recoveryCodes as string[] };
}

describe('setting up an authenticator app', () => {
  it('turns on with a code from the new secret, gives ten recovery codes kept only as hashes, and is e-mailed', async () => {
    const user = await createUser(t.db);
    const headers = await bearer(t.app, user.id);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp/confirm', headers, payload: { code: '123456' } });
    expect(wrong.json().message).toBe(server.notStarted);

    const { recoveryCodes: codes } = await enrol(headers);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored.map((row) => row.codeHash)).not.toContain(codes[0]);
    const status = await t.app.inject({ method: 'GET', url: '/api/me/second-step', headers });
    expect(status.json().data).toMatchObject({ authenticatorApp: true, recoveryCodesLeft: RECOVERY_CODE_COUNT, adminNeeds: 'nothing' });
    await expect.poll(() => mailsTo(user.email, mail.turnedOnSubject).length, { timeout: 10_000 }).toBe(1);

    // A second app cannot replace it without turning it off first.
    const again = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp', headers });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a confirming code that the new secret did not make', async () => {
    const headers = await bearer(t.app, (await createUser(t.db)).id);
    const started = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp', headers });
    const otherCode = await codeOf('KRUGS4ZANFZSAYJAORSXG5BAONSWG4TF');
    const refused = await t.app.inject({ method: 'POST', url: '/api/me/second-step/totp/confirm', headers, payload: { code: otherCode } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(server.wrongCode);
    const [row] = await t.db.select().from(users).where(eq(users.email, (await createUser(t.db)).email));
    expect(row!.totpSecret).toBeNull();
    expect(started.json().data.secret).toBeTruthy();
  });
});

describe('signing in with a second step', () => {
  it('asks for a code instead of a session, and signs in with a right one, once', async () => {
    const user = await createUser(t.db);
    const { secret } = await enrol(await bearer(t.app, user.id));
    const first = await login(user.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, secondStepNeeded: true, message: server.needed });
    expect(first.json().token).toBeUndefined();
    expect(first.headers['set-cookie']).toBeUndefined();
    const { challenge } = first.json();

    const wrong = await secondStep({ challenge, code: '000000' === (await codeOf(secret, 1)) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(server.wrongCode);

    // The confirming code used the current step: the next one is accepted, then never again.
    const code = await codeOf(secret, 1);
    const signedIn = await secondStep({ challenge, code });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().token).toEqual(expect.any(String));
    const replayed = await secondStep({ challenge, code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(server.wrongCode);
    const older = await secondStep({ challenge, code: await codeOf(secret) });
    expect(older.statusCode).toBe(401);
  });

  it('refuses a forged or expired challenge', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const forged = await secondStep({ challenge: `${admin.id}.${Math.floor(Date.now() / 1000) + 300}.forged`, code: await codeOf(TEST_TOTP_SECRET) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(server.signInExpired);
    const { challenge } = (await login(admin.email)).json();
    const [userId, , signature] = challenge.split('.');
    const stretched = await secondStep({ challenge: `${userId}.${Math.floor(Date.now() / 1000) + 99_999}.${signature}`, code: await codeOf(TEST_TOTP_SECRET) });
    expect(stretched.json().message).toBe(server.signInExpired);
  });

  it('takes each recovery code once, and e-mails its use', async () => {
    const user = await createUser(t.db);
    const { recoveryCodes: codes } = await enrol(await bearer(t.app, user.id));
    const { challenge } = (await login(user.email)).json();
    // Typed in capitals and without the dash, it is still the code.
    const used = await secondStep({ challenge, recoveryCode: codes[0]!.replace('-', '').toUpperCase() });
    expect(used.statusCode).toBe(200);
    const again = await secondStep({ challenge, recoveryCode: codes[0]! });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(server.wrongRecoveryCode);
    await expect.poll(() => mailsTo(user.email, mail.recoveryCodeUsedSubject).length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo(user.email, mail.recoveryCodeUsedSubject)[0]!.message.text).toContain(`${RECOVERY_CODE_COUNT - 1} unused codes are left`);
  });

  it('limits wrong codes per account, whatever the address', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const { challenge } = (await login(admin.email)).json();
    const right = await codeOf(TEST_TOTP_SECRET);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) expect((await secondStep({ challenge, code: wrong }, `198.51.100.${attempt}`)).statusCode).toBe(401);
    const limited = await secondStep({ challenge, code: right }, '198.51.100.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toContain(server.tooManyCodes);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('leaves the sign-in of an account without one as the specification has it', async () => {
    const buyer = await createUser(t.db);
    const response = await login(buyer.email);
    expect(Object.keys(response.json()).sort()).toEqual(['message', 'success', 'token']);
  });
});

describe('turning it off', () => {
  it('needs the password or a code, and is e-mailed', async () => {
    const user = await createUser(t.db);
    const headers = await bearer(t.app, user.id);
    const { secret } = await enrol(headers);
    const wrong = await t.app.inject({ method: 'DELETE', url: '/api/me/second-step', headers, payload: { password: 'not-it' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(server.wrongProof);
    const off = await t.app.inject({ method: 'DELETE', url: '/api/me/second-step', headers, payload: { code: await codeOf(secret, 1) } });
    expect(off.json().message).toBe(server.turnedOff);
    expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    await expect.poll(() => mailsTo(user.email, mail.turnedOffSubject).length, { timeout: 10_000 }).toBe(1);
    expect(Object.keys((await login(user.email)).json())).toContain('token');
  });

  it('is what a password reset does: the e-mail recovers an account whose phone is lost', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: admin.email } });
    const resetMail = await expect.poll(() => smtp.received.find((received) => received.envelope.to.includes(admin.email)), { timeout: 10_000 }).toBeDefined();
    void resetMail;
    const link = smtp.received.find((received) => received.envelope.to.includes(admin.email))!.message.text!;
    const token = /token=([\w-]+)/.exec(link)![1]!;
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'NewSecret123' } });
    expect(reset.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(row!.totpSecret).toBeNull();
    await expect.poll(() => mailsTo(admin.email, mail.turnedOffSubject).length, { timeout: 10_000 }).toBe(1);
    // Signed in by the reset, the admin is sent to set the second step up again.
    expect((await adminPage(asBearer(reset.json().token))).json().message).toBe(server.adminSetUp);
  });
});

describe('admin pages', () => {
  it('refuse an admin without a second step, saying to set it up', async () => {
    const admin = await createUser(t.db, { role: 'admin', totpSecret: null });
    const response = await adminPage(await bearer(t.app, admin.id, { secondStep: false }));
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(server.adminSetUp);
    const status = await t.app.inject({ method: 'GET', url: '/api/me/second-step', headers: await bearer(t.app, admin.id, { secondStep: false }) });
    expect(status.json().data.adminNeeds).toBe('set-up');
  });

  it('refuse an admin whose session skipped the second step, saying to sign in again with it', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const response = await adminPage(await bearer(t.app, admin.id, { secondStep: false }));
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(server.adminSignInAgain);
    // A passkey is a second step too: an admin with one only is asked to sign in with it.
    const withPasskey = await createUser(t.db, { role: 'admin', totpSecret: null });
    await t.db.insert(passkeys).values({ userId: withPasskey.id, credentialId: `key-${withPasskey.id}`, publicKey: 'AA', counter: 0, transports: [], name: 'Phone' });
    expect((await adminPage(await bearer(t.app, withPasskey.id, { secondStep: false }))).json().message).toBe(server.adminSignInAgain);
  });

  it('let in an admin signed in with password and code, and the session of the set-up', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const { challenge } = (await login(admin.email)).json();
    const { token } = (await secondStep({ challenge, code: await codeOf(TEST_TOTP_SECRET) })).json();
    expect((await adminPage(asBearer(token))).statusCode).toBe(200);
    // Renewing the session keeps its second step.
    const cookie = (await secondStep({ challenge, code: await codeOf(TEST_TOTP_SECRET, 1) })).cookies.find((c) => c.name === 'furniture_refresh')!;
    const renewed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { furniture_refresh: cookie.value } });
    expect((await adminPage(asBearer(renewed.json().token))).statusCode).toBe(200);

    const newAdmin = await createUser(t.db, { role: 'admin', totpSecret: null });
    const headers = await bearer(t.app, newAdmin.id, { secondStep: false });
    await enrol(headers);
    expect((await adminPage(headers)).statusCode).toBe(200);
  });

  it('refuse the session again once the app is turned off', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const headers = await bearer(t.app, admin.id);
    expect((await adminPage(headers)).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/api/me/second-step', headers, payload: { password: DEFAULT_TEST_PASSWORD } });
    expect((await adminPage(headers)).json().message).toBe(server.adminSetUp);
  });

  it('do not ask a seller who is an admin for it on a selling page', async () => {
    const sellingAdmin = await createUser(t.db, { role: 'admin', capabilities: ['admin', 'buy', 'sell'], totpSecret: null });
    const response = await t.app.inject({ method: 'GET', url: '/api/me/earnings', headers: await bearer(t.app, sellingAdmin.id, { secondStep: false }) });
    expect(response.statusCode).toBe(200);
  });
});

describe('with ADMIN_SECOND_STEP=optional', () => {
  const optional = setupTestApp({ adminSecondStep: 'optional' });
  it('an admin without a second step uses the admin pages', async () => {
    const admin = await createUser(optional.db, { role: 'admin', totpSecret: null });
    const response = await optional.app.inject({ method: 'GET', url: '/api/admin/audit', headers: await bearer(optional.app, admin.id, { secondStep: false }) });
    expect(response.statusCode).toBe(200);
  });
});
