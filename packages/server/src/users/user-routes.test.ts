import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createUser } from '../db/factories.ts';

const t = setupTestApp();

describe('GET /api/user', () => {
  it('answers the public profile of an e-mail in any letter case, without a token, and nothing else', async () => {
    const user = await createUser(t.db, { email: 'profile@example.com', name: 'Profile Owner', role: 'seller', verified: true });
    const response = await t.app.inject({ method: 'GET', url: '/api/user?email=Profile@Example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { _id: user.id, name: 'Profile Owner', email: 'profile@example.com', image: user.image, userRole: 'seller', verified: true },
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
});
