import { randomBytes, webcrypto } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_MAX_AGE_SECONDS, serverMessages } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { appSecrets } from '../db/schema/index.ts';
import { InvalidTokenError, type TokenSubject } from '../http/access.ts';

const ALGORITHM = 'HS256';
/**
 * Issuer and audience name the marketplace, not an address: every app server that shares the
 * database and the signing key accepts the others' tokens, whatever port or host it answers on.
 */
const ISSUER = 'furniture-marketplace';
const AUDIENCE = 'furniture-marketplace';
/** Verified tokens cached per server, at most (each a few hundred bytes). */
const KEPT_VERIFIED_TOKENS = 10_000;

export interface AccessTokens {
  issue(subject: TokenSubject): Promise<string>;
  /** The subject of a valid token; throws a readable reason otherwise. */
  verify(token: string): Promise<TokenSubject>;
  /** A keyed hash of the text with the signing key: the same on every app server, unguessable without the key. */
  keyedHash(text: string): Promise<string>;
}

/**
 * The signing key is JWT_SECRET when set; otherwise one generated once and kept in the database,
 * so every app server sharing the database accepts the others' tokens. Imported once: given raw
 * bytes, every signature and check would import it again.
 */
async function signingKey(db: Database, configured: string | undefined): Promise<webcrypto.CryptoKey> {
  const importKey = (secret: string) =>
    webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  if (configured) return importKey(configured);
  await db
    .insert(appSecrets)
    .values({ name: 'jwt', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(sql`${appSecrets.name} = 'jwt'`);
  return importKey(row!.value);
}

export async function createAccessTokens(
  db: Database,
  options: {
    secret?: string;
    /** The clock tokens are issued and checked by: the current time unless given. */
    now?: () => Date;
  },
): Promise<AccessTokens> {
  const key = await signingKey(db, options.secret);
  const now = options.now ?? (() => new Date());
  /**
   * Tokens this server has verified, until they expire: a client sends the same token with every
   * request for minutes, and checking its signature again each time would cost more than the rest
   * of a cached read. Only tokens that passed are cached; the least recently verified go first.
   */
  const verified = new Map<string, { subject: TokenSubject; expiresAt: number }>();
  return {
    issue: ({ userId, sessionId }) => {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ACCESS_TOKEN_MAX_AGE_SECONDS)
        .sign(key);
    },
    async keyedHash(text) {
      return Buffer.from(await webcrypto.subtle.sign('HMAC', key, new TextEncoder().encode(text))).toString('base64url');
    },
    async verify(token) {
      const kept = verified.get(token);
      if (kept && now().getTime() < kept.expiresAt) return kept.subject;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          maxTokenAge: `${ACCESS_TOKEN_MAX_AGE_SECONDS}s`,
          requiredClaims: ['sub', 'iat', 'exp', 'sid'],
          currentDate: now(),
        });
        if (typeof payload.sid !== 'string') throw new InvalidTokenError(serverMessages.accounts.tokenInvalid);
        const subject = { userId: payload.sub!, sessionId: payload.sid };
        verified.delete(token);
        verified.set(token, { subject, expiresAt: payload.exp! * 1000 });
        if (verified.size > KEPT_VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
        return subject;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new InvalidTokenError(serverMessages.accounts.tokenExpired);
        throw new InvalidTokenError(serverMessages.accounts.tokenInvalid);
      }
    },
  };
}
