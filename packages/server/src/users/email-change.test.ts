import { accountTexts } from '@furniture/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import type { Config } from '../config.ts';
import { accountTokens, users } from '../db/schema/index.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';

/** Changing an account's e-mail, confirmed by the link a real SMTP server received at the new address. */

let smtp: TestSmtpServer;
const settings: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  settings.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp?.close());
const t = setupTestApp(settings);
const { mail, server } = accountTexts;

let counter = 0;
const newAddress = () => `moved-${process.pid}-${++counter}@example.com`;

async function mailTo(address: string, subject: string) {
  const find = () => smtp.received.findLast((received) => received.envelope.to.includes(address) && received.message.subject === subject);
  await expect.poll(() => find() !== undefined, { timeout: 10_000 }).toBe(true);
  return find()!;
}

async function askChange(userId: string, email: string, currentPassword: string | undefined = DEFAULT_TEST_PASSWORD) {
  return t.app.inject({ method: 'POST', url: '/api/me/email', headers: await bearer(t.app, userId), payload: { email, currentPassword } });
}

const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/change-email', payload: { token } });

async function linkTo(email: string) {
  const received = await mailTo(email, mail.changeEmailSubject);
  return /\/change-email\?token=([\w-]+)/.exec(received.message.text ?? '')![1]!;
}

const emailOf = async (userId: string) => (await t.db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email;

describe('changing the e-mail', () => {
  it('sends a link to the new address and a notice to the old; the link changes the e-mail once', async () => {
    const user = await createUser(t.db);
    const email = newAddress();
    const asked = await askChange(user.id, email.toUpperCase());
    expect(asked.json()).toEqual({ success: true, message: server.emailLinkSent(email) });
    expect(await emailOf(user.id)).toBe(user.email);
    expect((await mailTo(user.email, mail.emailChangeAskedSubject)).message.text).toContain(email);

    const token = await linkTo(email);
    const changed = await confirm(token);
    expect(changed.json()).toEqual({ success: true, message: server.emailChanged });
    expect(await emailOf(user.id)).toBe(email);
    expect((await mailTo(user.email, mail.emailChangedSubject)).message.text).toContain(email);

    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(server.linkUsed);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an e-mail another account uses, when asked and when the link is opened', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const taken = await askChange(user.id, other.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(server.emailTakenByOther);

    const email = newAddress();
    await askChange(user.id, email);
    const token = await linkTo(email);
    await t.db.update(users).set({ email }).where(eq(users.id, other.id));
    const late = await confirm(token);
    expect(late.statusCode).toBe(409);
    expect(await emailOf(user.id)).toBe(user.email);
  });

  it('asks for the current password, and refuses the account’s own e-mail', async () => {
    const user = await createUser(t.db);
    const wrong = await askChange(user.id, newAddress(), 'Wrong1234');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(server.wrongCurrentPassword);
    const same = await askChange(user.id, user.email);
    expect(same.json().message).toBe(server.sameEmail);
  });

  it('refuses a link after an hour, and a forged one, and stores only the hash', async () => {
    const user = await createUser(t.db);
    const email = newAddress();
    await askChange(user.id, email);
    const token = await linkTo(email);
    const stored = await t.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);
    await t.db.update(accountTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(accountTokens.userId, user.id));
    expect((await confirm(token)).json().message).toBe(server.linkExpired);
    expect((await confirm('forged-token')).json().message).toBe(server.linkInvalid);
    expect(await emailOf(user.id)).toBe(user.email);
  });
});
