import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { ensureAdmin } from './admin-bootstrap.ts';
import { findUserByEmail } from './user-repository.ts';

const t = setupTestApp();

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('ensureAdmin (ADMIN_EMAIL and ADMIN_PASSWORD, npm run create-admin)', () => {
  it('creates a verified admin that can sign in', async () => {
    expect(await ensureAdmin(t.db, 'Root@Example.com', 'Admin1234')).toBe('created');
    expect(await findUserByEmail(t.db, 'root@example.com')).toMatchObject({ role: 'admin', verified: true, emailVerified: true });
    expect((await login('root@example.com', 'Admin1234')).statusCode).toBe(200);
  });

  it('leaves an existing admin alone on the next start', async () => {
    await ensureAdmin(t.db, 'again@example.com', 'Admin1234');
    expect(await ensureAdmin(t.db, 'again@example.com', 'Other1234')).toBe('unchanged');
    expect((await login('again@example.com', 'Admin1234')).statusCode).toBe(200);
  });

  it('promotes an existing account and gives it the new password, signing out its sessions', async () => {
    const user = await createUser(t.db, { role: 'seller', emailVerified: false });
    const before = await login(user.email, DEFAULT_TEST_PASSWORD);
    expect(await ensureAdmin(t.db, user.email, 'Promote1234')).toBe('promoted');
    expect(await findUserByEmail(t.db, user.email)).toMatchObject({ role: 'admin', verified: true, emailVerified: true });
    expect((await login(user.email, 'Promote1234')).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${before.json().token}` } });
    expect(me.statusCode).toBe(401);
  });

  it('refuses a weak password', async () => {
    await expect(ensureAdmin(t.db, 'weak@example.com', 'weak')).rejects.toThrow(/too weak/);
    expect(await findUserByEmail(t.db, 'weak@example.com')).toBeUndefined();
  });
});
