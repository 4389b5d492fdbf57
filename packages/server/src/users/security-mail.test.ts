import { accountTexts } from '@furniture/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import type { Config } from '../config.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';

/** The e-mails an account gets when how it signs in changes, received by a real SMTP server. */

let smtp: TestSmtpServer;
const settings: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  settings.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp?.close());
const t = setupTestApp(settings);
const { mail } = accountTexts;

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signIn(email: string, userAgent: string, remoteAddress: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: DEFAULT_TEST_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `bearer ${response.json().token}` };
}

const mailsTo = (address: string, subject: string) => smtp.received.filter((received) => received.envelope.to.includes(address) && received.message.subject === subject);

/** Waits for the mails to `address` with this subject to number `count`; answers them. */
async function expectMails(address: string, subject: string, count: number) {
  await expect.poll(() => mailsTo(address, subject).length, { timeout: 10_000 }).toBe(count);
  return mailsTo(address, subject);
}

describe('security e-mails', () => {
  it('tell of a sign-in from a browser and address the account never used, and of no other', async () => {
    const user = await createUser(t.db);
    await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.7');
    await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.7');
    await signIn(user.email, SAFARI_IPHONE, '203.0.113.7');
    await signIn(user.email, FIREFOX_WINDOWS, '198.51.100.20');
    const [onPhone, elsewhere] = await expectMails(user.email, mail.newDeviceSubject, 2);
    expect(onPhone!.message.text).toContain('Safari on iPhone, from the address 203.0.113.7');
    expect(elsewhere!.message.text).toContain('Firefox on Windows, from the address 198.51.100.20');
    expect(elsewhere!.message.text).toContain(`${t.config.publicUrl}/forgot-password`);
    // The first sign-in is no news; the repeated one from the same browser and address neither.
    await signIn(user.email, SAFARI_IPHONE, '203.0.113.7');
    const checkedLater = await createUser(t.db);
    await signIn(checkedLater.email, FIREFOX_WINDOWS, '203.0.113.7');
    await signIn(checkedLater.email, SAFARI_IPHONE, '203.0.113.7');
    await expectMails(checkedLater.email, mail.newDeviceSubject, 1);
    expect(mailsTo(user.email, mail.newDeviceSubject)).toHaveLength(2);
  });

  it('tell of a changed password, in Settings or by a reset link', async () => {
    const user = await createUser(t.db);
    const headers = await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.8');
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers,
      payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword: 'Changed789' },
    });
    expect(changed.statusCode).toBe(200);
    const [notice] = await expectMails(user.email, mail.passwordChangedSubject, 1);
    expect(notice!.message.text).toContain(mail.notYou);

    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email }, remoteAddress: '203.0.113.9' });
    await expect.poll(() => mailsTo(user.email, mail.resetSubject).length, { timeout: 10_000 }).toBe(1);
    const token = /reset-password\?token=([\w-]+)/.exec(mailsTo(user.email, mail.resetSubject)[0]!.message.text ?? '')![1];
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Again4567' } });
    expect(reset.statusCode).toBe(200);
    await expectMails(user.email, mail.passwordChangedSubject, 2);
  });

  it('send nothing when the current password is wrong', async () => {
    const user = await createUser(t.db);
    const headers = await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.10');
    const refused = await t.app.inject({ method: 'POST', url: '/api/me/password', headers, payload: { currentPassword: 'Wrong1234', newPassword: 'Changed789' } });
    expect(refused.statusCode).toBe(400);
    // A sign-in of another account after it, e-mailed, shows the queue has moved past the refusal.
    const later = await createUser(t.db);
    await signIn(later.email, FIREFOX_WINDOWS, '203.0.113.10');
    await signIn(later.email, SAFARI_IPHONE, '203.0.113.10');
    await expectMails(later.email, mail.newDeviceSubject, 1);
    expect(mailsTo(user.email, mail.passwordChangedSubject)).toEqual([]);
  });
});
