import { describe, expect, it } from 'vitest';
import { messages } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';

const t = setupTestApp();

const signup = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });

const validSignup = (overrides: Record<string, unknown> = {}) => ({
  name: 'Rahim',
  email: `rahim-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'Secret123',
  image: 'https://images.example.com/rahim.webp',
  userRole: 'seller',
  ...overrides,
});

describe('POST /api/auth/signup', () => {
  it('creates the account, signs in, and sets an httpOnly strict refresh cookie', async () => {
    const response = await signup(validSignup({ email: 'New.Seller@Example.com' }));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ success: true, token: expect.any(String) });
    const cookie = response.cookies.find((c) => c.name === 'furniture_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${body.token}` } });
    expect(me.json().data).toMatchObject({ email: 'new.seller@example.com', userRole: 'seller', verified: false, emailVerified: false });
  });

  it.each([
    [{ password: undefined }, messages.passwordRequired],
    [{ password: '' }, messages.passwordRequired],
    [{ password: 'Ab1' }, messages.passwordTooShort],
    [{ password: 'secret123' }, messages.passwordTooWeak],
    [{ password: 'SecretABC' }, messages.passwordTooWeak],
    [{ userRole: undefined }, messages.roleRequired],
    [{ userRole: 'admin' }, messages.roleRequired],
    [{ image: undefined }, messages.photoRequired],
    [{ image: 'javascript:alert(1)' }, 'image must be an http(s) URL'],
    [{ email: 'not-an-email' }, 'email must be a valid e-mail address'],
    [{ name: '' }, 'name is required'],
  ])('refuses %o with 400 and the rule it broke', async (override, expected) => {
    const response = await signup(validSignup(override));
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().errors.map((e: { message: string }) => e.message)).toContain(expected);
  });

  it('refuses a second account for the same e-mail in any letter case', async () => {
    await createUser(t.db, { email: 'taken@example.com' });
    const response = await signup(validSignup({ email: 'TAKEN@example.com' }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/already exists/);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password and answers the specification’s success message', async () => {
    const user = await createUser(t.db, { email: 'buyer-login@example.com' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'Buyer-Login@example.com', password: DEFAULT_TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: messages.signInSuccess });
    expect((await t.app.accessTokens.verify(response.json().token)).userId).toBe(user.id);
  });

  it('answers 401 for a wrong password and for an unknown account alike', async () => {
    await createUser(t.db, { email: 'wrong-pass@example.com' });
    for (const email of ['wrong-pass@example.com', 'nobody@example.com']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Wrong123' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: 'Wrong e-mail or password.' });
    }
  });

  it('needs both e-mail and password', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('password is required');
  });
});
