import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../db/factories.ts';
import { LOGIN_THROTTLE } from './login-throttle.ts';

const t = setupTestApp();

const attempt = (email: string, password: string, remoteAddress = '203.0.113.10') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

describe('failed sign-in throttling', () => {
  it('locks an account after too many wrong passwords, with Retry-After and a message saying when', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccount; i++) {
      expect((await attempt(user.email, 'Wrong123', `198.51.100.${i}`)).statusCode).toBe(401);
    }
    // Even the right password waits: the lock protects the account, whoever is guessing.
    const locked = await attempt(user.email, DEFAULT_TEST_PASSWORD, '198.51.100.99');
    expect(locked.statusCode).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(LOGIN_THROTTLE.windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowSeconds);
    expect(locked.json().message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  it('lets the account in again once the window has passed', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccount; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(429);
    await t.db.execute(
      sql`update login_throttle set window_started_at = now() - interval '16 minutes' where key = ${`account:${user.email}`}`,
    );
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
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccount - 1; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAccount - 1; i++) await attempt(user.email, 'Wrong123');
    expect((await attempt(user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });
});
