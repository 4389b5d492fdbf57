import { randomBytes } from 'node:crypto';
import { signerFactory } from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { appSecrets } from '../db/schema/index.ts';

/** Both cookies live only under the OpenID routes and only as long as a sign-in takes. */
const COOKIE_PATH = '/api/auth/oidc';
const MAX_AGE_SECONDS = 10 * 60;

/** The PKCE verifier, state and nonce of a sign-in in progress, between /start and /callback. */
type SignerBase = ReturnType<typeof signerFactory>;

export const ATTEMPT_COOKIE = 'furniture_oidc';
const attemptSchema = z.object({ state: z.string(), nonce: z.string(), verifier: z.string(), exp: z.number() });
export type OidcAttempt = Omit<z.infer<typeof attemptSchema>, 'exp'>;

/** An identity waiting for the password of the account with its e-mail, for /link. */
export const LINK_COOKIE = 'furniture_oidc_link';
const pendingLinkSchema = z.object({ userId: z.string(), issuer: z.string(), subject: z.string(), exp: z.number() });
export type PendingLink = Omit<z.infer<typeof pendingLinkSchema>, 'exp'>;

/**
 * The signing secret, generated once and kept in the database like the token key, so every app
 * server accepts a cookie another one set.
 */
export async function oidcCookieSigner(db: Database): Promise<SignerBase> {
  await db
    .insert(appSecrets)
    .values({ name: 'oidc-cookies', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, 'oidc-cookies'));
  return signerFactory(row!.value);
}

function setSigned(app: FastifyInstance, reply: FastifyReply, signer: SignerBase, name: string, value: object, sameSite: 'lax' | 'strict') {
  const payload = Buffer.from(JSON.stringify({ ...value, exp: Date.now() + MAX_AGE_SECONDS * 1000 })).toString('base64url');
  reply.setCookie(name, signer.sign(payload), {
    httpOnly: true,
    secure: app.config.secureCookies,
    path: COOKIE_PATH,
    maxAge: MAX_AGE_SECONDS,
    sameSite,
  });
}

function readSigned<T extends { exp: number }>(request: FastifyRequest, signer: SignerBase, name: string, schema: z.ZodType<T>): Omit<T, 'exp'> | undefined {
  const raw = request.cookies[name];
  if (!raw) return undefined;
  const unsigned = signer.unsign(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.exp < Date.now()) return undefined;
    const { exp: _exp, ...value } = parsed.data;
    return value;
  } catch {
    return undefined;
  }
}

export function clearOidcCookie(app: FastifyInstance, reply: FastifyReply, name: string) {
  reply.clearCookie(name, { httpOnly: true, secure: app.config.secureCookies, path: COOKIE_PATH });
}

export function oidcCookies(app: FastifyInstance, signer: SignerBase) {
  return {
    // Lax: the callback arrives as a top-level navigation from the provider's site.
    setAttempt: (reply: FastifyReply, attempt: OidcAttempt) => setSigned(app, reply, signer, ATTEMPT_COOKIE, attempt, 'lax'),
    readAttempt: (request: FastifyRequest) => readSigned(request, signer, ATTEMPT_COOKIE, attemptSchema),
    // Strict: only the web app's own page posts the password.
    setPendingLink: (reply: FastifyReply, link: PendingLink) => setSigned(app, reply, signer, LINK_COOKIE, link, 'strict'),
    readPendingLink: (request: FastifyRequest) => readSigned(request, signer, LINK_COOKIE, pendingLinkSchema),
  };
}
