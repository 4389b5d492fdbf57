import { describe, expect, it } from 'vitest';
import { accountTexts } from '@furniture/contract';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { LOGIN_THROTTLE } from './login-throttle.ts';
import { describeUserAgent } from './user-agents.ts';

const t = setupTestApp();
const other = setupSecondApp(t);

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signIn(email: string, userAgent = FIREFOX_WINDOWS, remoteAddress = '203.0.113.7', password = DEFAULT_TEST_PASSWORD) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `bearer ${response.json().token}` };
}

describe('GET and PATCH /api/me', () => {
  it('answers the account’s own details, and changes only the fields sent', async () => {
    const user = await createUser(t.db, { name: 'Old Name' });
    const headers = await signIn(user.email);
    const before = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(before.json().data).toEqual({
      _id: user.id,
      name: 'Old Name',
      email: user.email,
      image: user.image,
      phone: null,
      location: null,
      emailVerified: true,
      hasPassword: true,
    });

    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers,
      payload: { name: 'New Name', image: 'https://images.example.com/new.webp', phone: '+880 1711 223344', location: 'Mirpur' },
    });
    expect(changed.json()).toMatchObject({
      message: accountTexts.server.profileSaved,
      data: { name: 'New Name', image: 'https://images.example.com/new.webp', phone: '+880 1711 223344', location: 'Mirpur' },
    });
    // The other server sees the new name at once.
    expect((await other.app.inject({ method: 'GET', url: '/api/auth/me', headers })).json().data.name).toBe('New Name');

    const cleared = await t.app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { phone: null } });
    expect(cleared.json().data).toMatchObject({ name: 'New Name', phone: null, location: 'Mirpur' });
  });

  it.each([
    [{}, 'Send at least one of name, image, phone and location'],
    [{ name: '' }, 'name is required'],
    [{ image: 'javascript:alert(1)' }, 'image must be an http(s) URL'],
    [{ phone: 'call me' }, 'phone must be a phone number'],
  ])('refuses %o with 400 saying what is wrong', async (payload, message) => {
    const user = await createUser(t.db);
    const response = await t.app.inject({ method: 'PATCH', url: '/api/me', headers: await signIn(user.email), payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((error: { message: string }) => error.message)).toContain(message);
  });
});

describe('POST /api/me/password', () => {
  it('changes the password with the current one, and signs out every other session on every server', async () => {
    const user = await createUser(t.db);
    const here = await signIn(user.email);
    const elsewhere = await signIn(user.email, SAFARI_IPHONE);
    expect((await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: elsewhere })).statusCode).toBe(200);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: here,
      payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword: 'Changed789' },
    });
    expect(changed.json()).toEqual({ success: true, message: accountTexts.server.passwordChanged });
    for (const app of [t.app, other.app]) {
      expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: elsewhere })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: here })).statusCode).toBe(200);
    }
    await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.7', 'Changed789');
  });

  it('refuses a wrong current password, counting it as a failed sign-in', async () => {
    const user = await createUser(t.db);
    const headers = await signIn(user.email);
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/api/me/password', headers, payload: { currentPassword: 'Wrong1234', newPassword: 'Changed789' } });
    const wrong = await attempt();
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(accountTexts.server.wrongCurrentPassword);
    for (let i = 1; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress; i++) await attempt();
    expect((await attempt()).statusCode).toBe(429);
  });
});

describe('the sessions of an account', () => {
  it('lists each sign-in with its browser, address and last use, marking this one, and signs out one or all others', async () => {
    const user = await createUser(t.db);
    const phone = await signIn(user.email, SAFARI_IPHONE, '198.51.100.4');
    const laptop = await signIn(user.email, FIREFOX_WINDOWS, '203.0.113.7');
    const third = await signIn(user.email, 'curl/8.0');
    const listed = await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: laptop });
    const sessions = listed.json().data as Array<{ _id: string; device: string; address: string; current: boolean; lastSeenAt: string }>;
    expect(sessions.map(({ device, address, current }) => ({ device, address, current }))).toEqual([
      { device: accountTexts.settings.unknownDevice, address: '203.0.113.7', current: false },
      { device: 'Firefox on Windows', address: '203.0.113.7', current: true },
      { device: 'Safari on iPhone', address: '198.51.100.4', current: false },
    ]);

    const phoneSession = sessions.find((session) => session.device === 'Safari on iPhone')!;
    const ended = await t.app.inject({ method: 'DELETE', url: `/api/me/sessions/${phoneSession._id}`, headers: laptop });
    expect(ended.json()).toEqual({ success: true, message: accountTexts.server.sessionEnded });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: phone })).statusCode).toBe(401);

    // Someone else's session, or one already ended, is not found among the caller's.
    const stranger = await createUser(t.db);
    const strangerHeaders = await signIn(stranger.email);
    const strangers = (await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: strangerHeaders })).json().data;
    for (const id of [strangers[0]._id, phoneSession._id]) {
      const refused = await t.app.inject({ method: 'DELETE', url: `/api/me/sessions/${id}`, headers: laptop });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(accountTexts.server.noSession);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: strangerHeaders })).statusCode).toBe(200);

    const others = await t.app.inject({ method: 'DELETE', url: '/api/me/sessions', headers: laptop });
    expect(others.json().message).toBe(accountTexts.server.otherSessionsEnded);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: third })).statusCode).toBe(401);
    const left = (await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: laptop })).json().data;
    expect(left).toMatchObject([{ device: 'Firefox on Windows', current: true }]);
  });

  it('names browsers and systems as people do', () => {
    const chromeAndroid = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
    const edge = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0';
    expect(describeUserAgent(chromeAndroid)).toBe('Chrome on Android');
    expect(describeUserAgent(edge)).toBe('Edge on Windows');
    expect(describeUserAgent(SAFARI_IPHONE)).toBe('Safari on iPhone');
    expect(describeUserAgent(null)).toBe(accountTexts.settings.unknownDevice);
  });
});
