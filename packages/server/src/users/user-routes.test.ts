import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { RATE_LIMITS } from '../http/rate-limit.ts';
import { createUser } from '../demo/factories.ts';
import { users } from '../db/schema/index.ts';

const t = setupTestApp();

describe('GET /api/user', () => {
  it('answers the public profile of an e-mail in any letter case, without a token, and nothing else', async () => {
    const user = await createUser(t.db, { email: 'profile@example.com', name: 'Profile Owner', role: 'seller', verified: true });
    const response = await t.app.inject({ method: 'GET', url: '/api/user?email=Profile@Example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { _id: user.id, name: 'Profile Owner', email: 'profile@example.com', image: user.image, userRole: 'seller', capabilities: ['buy', 'sell'], verified: true, emailVerified: true },
    });
    expect(response.body).not.toMatch(/password|argon2|createdAt|created_at/i);
  });

  it('answers 404 for an unknown e-mail and 400 for a missing or malformed one', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/user?email=ghost@example.com' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No account with the e-mail ghost@example.com' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/user' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('email is required');
    const malformed = await t.app.inject({ method: 'GET', url: '/api/user?email=%27%20or%201%3D1' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('email must be a valid e-mail address');
  });

  it('answers a suspended seller’s record only to the account itself and to admins, as if there were none', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, seller.id));
    const response = await t.app.inject({ method: 'GET', url: `/api/user?email=${seller.email}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: `No account with the e-mail ${seller.email}` });
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const byAdmin = await t.app.inject({ method: 'GET', url: `/api/user?email=${seller.email}`, headers: await bearer(t.app, admin.id) });
    expect(byAdmin.json().data).toMatchObject({ _id: seller.id });
  });

  it('answers buyers’ and admins’ records only to the account itself and to admins', async () => {
    const [buyer, admin, stranger] = [
      await createUser(t.db, { role: 'buyer' }),
      await createUser(t.db, { role: 'admin' }),
      await createUser(t.db, { role: 'seller' }),
    ];
    for (const account of [buyer, admin]) {
      const url = `/api/user?email=${account.email}`;
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, headers: await bearer(t.app, stranger.id) })).statusCode).toBe(404);
      const own = await t.app.inject({ method: 'GET', url, headers: await bearer(t.app, account.id) });
      expect(own.json().data).toMatchObject({ _id: account.id, userRole: account.role });
      const byAdmin = await t.app.inject({ method: 'GET', url, headers: await bearer(t.app, admin.id) });
      expect(byAdmin.json().data).toMatchObject({ _id: account.id });
    }
  });

  it(`limits other people's look-ups to ${RATE_LIMITS.accountLookupsPerAddress.max} per address, not one's own`, async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const address = '203.0.113.90';
    const lookUp = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/user?email=${seller.email}`, remoteAddress: address, headers });
    for (let i = 0; i < RATE_LIMITS.accountLookupsPerAddress.max; i++) expect((await lookUp()).statusCode).toBe(200);
    const refused = await lookUp();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many account look-ups from this address. Try again in 10 minutes.');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await lookUp(await bearer(t.app, seller.id))).statusCode).toBe(200);
  });
});
