import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { LOGIN_THROTTLE } from './login-throttle.ts';

const t = setupTestApp();

const attempt = (email: string, password: string, remoteAddress = '203.0.113.10') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

describe('failed sign-in throttling', () => {
  it('refuses an address that keeps failing on an account, with Retry-After, and lets the owner in from another address', async () => {
    const user = await createUser(t.db);
    const guesser = '198.51.100.7';
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress; i++) {
      expect((await attempt(user.email, 'Wrong123', guesser)).statusCode).toBe(401);
    }
    // The guessing address waits, even with the right password...
    const refused = await attempt(user.email, DEFAULT_TEST_PASSWORD, guesser);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(LOGIN_THROTTLE.windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowSeconds);
    expect(refused.json().message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    // ...the owner, from their own address, does not.
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD, '198.51.100.99')).statusCode).toBe(200);
  });

  it('only paces an account guessed at from many addresses, and never the owner from an address with no failures', async () => {
    const user = await createUser(t.db);
    // Failures from many addresses, none of them over its own limit.
    for (let i = 0; i < LOGIN_THROTTLE.paceAfterFailuresPerAccount; i++) {
      expect((await attempt(user.email, 'Wrong123', `198.51.101.${i}`)).statusCode).toBe(401);
    }
    // An address that failed before: one attempt, then the next within the pace is refused for seconds.
    expect((await attempt(user.email, 'Wrong123', '198.51.101.0')).statusCode).toBe(401);
    const paced = await attempt(user.email, 'Wrong123', '198.51.101.1');
    expect(paced.statusCode).toBe(429);
    expect(Number(paced.headers['retry-after'])).toBeLessThanOrEqual(LOGIN_THROTTLE.paceSeconds);
    expect(paced.json().message).toBe(
      'Someone has been trying many wrong passwords for this account, so sign-ins to it are slowed down. Try again in a few seconds.',
    );
    // The owner from an address with no failures gets in at once, every time.
    for (let i = 0; i < 3; i++) expect((await attempt(user.email, DEFAULT_TEST_PASSWORD, '203.0.113.200')).statusCode).toBe(200);
  });

  it('lets the address try again once the window has passed', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(429);
    await t.db.execute(sql`update login_throttle set window_started_at = now() - interval '16 minutes' where key like ${`%${user.email}%`}`);
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('limits one address guessing across many accounts', async () => {
    const address = '192.0.2.77';
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAddress; i++) {
      await attempt(`victim-${i}@example.com`, 'Wrong123', address);
    }
    const user = await createUser(t.db);
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD, address)).statusCode).toBe(429);
    // The same account from another address is unaffected.
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD, '192.0.2.78')).statusCode).toBe(200);
  });

  it('does not slow down successful sign-ins and sign-ups from one address', async () => {
    const address = '192.0.2.200';
    const user = await createUser(t.db);
    for (let i = 0; i < 30; i++) {
      expect((await attempt(user.email, DEFAULT_TEST_PASSWORD, address)).statusCode).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: address,
        payload: { name: 'N', email: `many-${i}@example.com`, password: 'Secret123', image: 'https://i.example.com/a.webp', userRole: 'buyer' },
      });
      expect(signup.statusCode).toBe(201);
    }
  });

  it('forgets earlier failures of an account after a successful sign-in', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress - 1; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccountAtAddress - 1; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });
});
