import { randomBytes } from 'node:crypto';
import { accountTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, setupSecondApp, setupTestApp } from '../../test/app.ts';
import { passkeyChallenges, passkeys } from '../db/schema/index.ts';
import { createUser } from '../demo/factories.ts';

const t = setupTestApp({ publicUrl: 'https://furniture.example.com' });
const other = setupSecondApp(t);
const { server } = accountTexts;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * What a browser would send back for a challenge, signed by nothing: enough for every refusal that
 * comes before the signature is checked. The browser test signs with a real (virtual) authenticator.
 */
function answer(challenge: string, credentialId = base64url(randomBytes(16)), type = 'webauthn.get') {
  const clientDataJSON = base64url(JSON.stringify({ type, challenge, origin: 'https://furniture.example.com' }));
  return {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    response: { clientDataJSON, authenticatorData: base64url(randomBytes(37)), signature: base64url(randomBytes(64)) },
    clientExtensionResults: {},
  };
}

async function signInChallenge(app = t.app): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/passkey/options' });
  expect(response.statusCode).toBe(200);
  return response.json().data.challenge;
}

describe('passkey sign-in', () => {
  it('offers a challenge for the site’s own host, asking the device to check its owner', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/passkey/options' });
    expect(response.json().data).toMatchObject({ rpId: 'furniture.example.com', userVerification: 'required' });
    const [stored] = await t.db.select().from(passkeyChallenges).where(eq(passkeyChallenges.challenge, response.json().data.challenge));
    expect(stored).toMatchObject({ purpose: 'sign-in', userId: null });
  });

  it('refuses an answer to a challenge it never gave', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: answer(base64url(randomBytes(32))) } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(server.passkeyRequestExpired);
  });

  it('uses each challenge once, whichever app server gave it', async () => {
    const challenge = await signInChallenge(other.app);
    const first = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: answer(challenge) } });
    expect(first.statusCode).toBe(401);
    expect(first.json().message).toBe(server.passkeyUnknown);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: answer(challenge) } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(server.passkeyRequestExpired);
  });

  it('refuses an expired challenge', async () => {
    const challenge = await signInChallenge();
    await t.db.update(passkeyChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passkeyChallenges.challenge, challenge));
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: answer(challenge) } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(server.passkeyRequestExpired);
  });

  it('refuses a forged signature for a known passkey, and signs nobody in', async () => {
    const user = await createUser(t.db);
    const credentialId = base64url(randomBytes(16));
    await t.db.insert(passkeys).values({ userId: user.id, credentialId, publicKey: base64url(randomBytes(77)), name: 'Chrome on Linux' });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: answer(await signInChallenge(), credentialId) } });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(server.passkeyNotChecked);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('names the part of a malformed answer', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', payload: { response: { id: 'x', type: 'password' } } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('response');
  });
});

describe('adding and removing passkeys', () => {
  it('offers a challenge for the account, excluding the passkeys it has', async () => {
    const user = await createUser(t.db);
    const credentialId = base64url(randomBytes(16));
    await t.db.insert(passkeys).values({ userId: user.id, credentialId, publicKey: base64url(randomBytes(77)), name: 'Safari on iPhone' });
    const response = await t.app.inject({ method: 'POST', url: '/api/me/passkeys/options', headers: await bearer(t.app, user.id) });
    expect(response.statusCode).toBe(200);
    const options = response.json().data;
    expect(options).toMatchObject({
      rp: { id: 'furniture.example.com' },
      user: { name: user.email },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    expect(options.excludeCredentials.map((credential: { id: string }) => credential.id)).toEqual([credentialId]);
  });

  it('refuses a new passkey answering another account’s challenge', async () => {
    const owner = await createUser(t.db);
    const intruder = await createUser(t.db);
    const options = await t.app.inject({ method: 'POST', url: '/api/me/passkeys/options', headers: await bearer(t.app, owner.id) });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/me/passkeys',
      headers: await bearer(t.app, intruder.id),
      payload: { response: answer(options.json().data.challenge, undefined, 'webauthn.create') },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(server.passkeyRequestExpired);
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, intruder.id))).toEqual([]);
  });

  it('refuses a new passkey whose attestation does not check out', async () => {
    const user = await createUser(t.db);
    const headers = await bearer(t.app, user.id);
    const options = await t.app.inject({ method: 'POST', url: '/api/me/passkeys/options', headers });
    const made = answer(options.json().data.challenge, undefined, 'webauthn.create');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/me/passkeys',
      headers,
      payload: { response: { ...made, response: { clientDataJSON: made.response.clientDataJSON, attestationObject: base64url(randomBytes(64)) } } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(server.passkeyNotChecked);
  });

  it('lists and removes only the account’s own passkeys', async () => {
    const owner = await createUser(t.db);
    const stranger = await createUser(t.db);
    const [passkey] = await t.db
      .insert(passkeys)
      .values({ userId: owner.id, credentialId: base64url(randomBytes(16)), publicKey: base64url(randomBytes(77)), name: 'Firefox on Windows' })
      .returning();
    const listed = await t.app.inject({ method: 'GET', url: '/api/me/passkeys', headers: await bearer(t.app, owner.id) });
    expect(listed.json().data).toEqual([{ _id: passkey!.id, name: 'Firefox on Windows', createdAt: passkey!.createdAt.toISOString(), lastUsedAt: null }]);
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/me/passkeys/${passkey!.id}`, headers: await bearer(t.app, stranger.id) });
    expect(foreign.statusCode).toBe(404);
    const own = await t.app.inject({ method: 'DELETE', url: `/api/me/passkeys/${passkey!.id}`, headers: await bearer(t.app, owner.id) });
    expect(own.json().message).toBe(server.passkeyRemoved);
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, owner.id))).toEqual([]);
  });
});
