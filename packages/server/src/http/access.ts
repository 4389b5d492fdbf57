import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { capabilityTexts, secondStepTexts, serverMessages, trustTexts, type Capability } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { VersionedCache } from '../cache/versioned-cache.ts';
import { forbidden, unauthorized } from './errors.ts';

/**
 * Who may call a route. Every /api route declares one in `config.access`; the app refuses to
 * start with a route that does not, so a new route cannot be public by accident.
 *   'public'      anyone
 *   'signed-in'   any signed-in account
 *   Capability[]  signed-in accounts holding one of these capabilities, read from the database
 *                 for the verified token's account (decision 37)
 */
export type Access = 'public' | 'signed-in' | readonly Capability[];

/**
 * The signed-in account. Access control reads these fields; the users domain, which loads accounts,
 * adds the rest of its row to this interface (users/user-repository.ts).
 */
export interface SignedInUser {
  id: string;
  /** What the account may do: routes declare the capabilities they need (decision 37). */
  capabilities: Capability[];
  emailVerified: boolean;
  suspendedAt: Date | null;
}

/** Whose access token it is, and the session (sign-in) it belongs to: signing out ends the token too. */
export interface TokenSubject {
  userId: string;
  sessionId: string;
}

/** A token that is not (or no longer) valid; its message tells the person why. */
export class InvalidTokenError extends Error {}

/** How access control finds accounts and sessions: given by the users domain, which owns both (app.ts). */
export interface AccountLookup {
  findUser(db: Executor, id: string): Promise<SignedInUser | undefined>;
  /**
   * The account, until when its session is open (null once it has ended) and whether its sign-in
   * passed a second step; undefined when the account is gone.
   */
  findSessionUser(db: Executor, userId: string, sessionId: string): Promise<{ user: SignedInUser; sessionEndsAt: number | null; secondStep: boolean } | undefined>;
  /** Whether the account has a second step to sign in with (decision 38). */
  hasSecondStep(db: Executor, userId: string): Promise<boolean>;
}

/** An /api route as registered, with the access it declares. */
export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route and its declared access, in registration order (HEAD routes included). */
    apiRoutes: ApiRoute[];
    /** Sessions this server found open, by user and session id (see `sessionUser`). */
    sessionCache: VersionedCache<CachedSession>;
    accountLookup: AccountLookup;
  }
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Another proof of identity the route accepts from a request without a bearer token: answers
     * the account's id, null when the request carries none, or throws 401 for a bad one. (The live
     * event stream's one-time ticket, for browsers' EventSource, which cannot send headers.)
     */
    credential?: (request: FastifyRequest) => Promise<string | null>;
    /**
     * Called with the account of a bearer token whose signature has been verified, before its
     * session is checked: reads the route will want for that account, started now, ride the round
     * trip to the database that the session check waits for (a cached list's fingerprint,
     * cache/own-list-cache.ts). Nothing started here may be used unless the access check passes,
     * nor for another account than the one the route then serves.
     */
    onTokenVerified?: (request: FastifyRequest, userId: string) => void;
  }
  interface FastifyRequest {
    /** The signed-in account, loaded from the database for the verified token's subject. */
    user: SignedInUser | null;
    /** The session (sign-in) of the caller's bearer token; null without one. */
    sessionId: string | null;
    /** The caller's session signed in with a second step (decision 38). */
    secondStep: boolean;
  }
}

export function bearerToken(request: { headers: IncomingHttpHeaders }): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * A verified caller: the account, the session its token belongs to (none for other credentials),
 * and whether that session signed in with a second step.
 */
export interface Caller {
  user: SignedInUser;
  sessionId: string | null;
  secondStep: boolean;
}

/** The tables whose changes may end a session or change its account. */
export const SESSION_TABLES = ['users', 'refresh_tokens'] as const;
/** Sessions found open that this server caches, at most; those not used lately go first. */
const CACHED_SESSIONS = 10_000;
/** An open session as this server last found it: its account, when it runs out, and whether it passed a second step. */
type CachedSession = { user: SignedInUser; sessionEndsAt: number; secondStep: boolean };

/**
 * Resolves the caller from the bearer token, if any, else from the route's other credential; throws
 * 401 for a token that is present but invalid, or whose session has ended (signed out).
 */
export async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
  { credential, onTokenVerified }: Pick<FastifyContextConfig, 'credential' | 'onTokenVerified'> = {},
): Promise<Caller | null> {
  const token = bearerToken(request);
  if (!token) {
    const userId = credential ? await credential(request) : null;
    if (!userId) return null;
    const user = await app.accountLookup.findUser(app.db, userId);
    if (!user) throw unauthorized(serverMessages.accounts.gone);
    refuseSuspended(user);
    return { user, sessionId: null, secondStep: false };
  }
  let subject: TokenSubject;
  try {
    subject = await app.accessTokens.verify(token);
  } catch (error) {
    throw unauthorized(error instanceof InvalidTokenError ? error.message : undefined);
  }
  onTokenVerified?.(request, subject.userId);
  return { ...(await sessionUser(app, request, subject)), sessionId: subject.sessionId };
}

/**
 * The account of a verified token whose session is open. What this server found is cached while no
 * account has changed and no session has ended since (see data-versions.ts: a change committed
 * through any server before the request arrived is heard first), so a signed-in read costs no
 * query of its own; a sign-out or a suspension is still refused at once on every server.
 */
async function sessionUser(app: FastifyInstance, request: FastifyRequest, subject: TokenSubject): Promise<{ user: SignedInUser; secondStep: boolean }> {
  const sessions = app.sessionCache;
  const key = `${subject.userId} ${subject.sessionId}`;
  const versions = await sessions.versionsFor(request, SESSION_TABLES);
  const cached = sessions.get(key, versions);
  // Cached while no account changed and no session ended, and the session has not run out.
  if (cached && Date.now() < cached.sessionEndsAt) {
    refuseSuspended(cached.user);
    return cached;
  }

  const found = await app.accountLookup.findSessionUser(app.db, subject.userId, subject.sessionId);
  if (!found) throw unauthorized(serverMessages.accounts.gone);
  refuseSuspended(found.user);
  if (found.sessionEndsAt === null) throw unauthorized(serverMessages.accounts.sessionEnded);
  sessions.set(key, versions, { user: found.user, sessionEndsAt: found.sessionEndsAt, secondStep: found.secondStep });
  return { user: found.user, secondStep: found.secondStep };
}

export function refuseSuspended(user: SignedInUser) {
  // Suspension ends every session too; this refuses a token even in the instant before that commits.
  if (user.suspendedAt) throw unauthorized(trustTexts.accountSuspended);
}

function guard(app: FastifyInstance, access: Access, config: FastifyContextConfig | undefined) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const caller = await authenticate(app, request, config).catch((error: unknown) => {
      if (access === 'public') return null; // a stale token does not stop anyone reading public data
      throw error;
    });
    request.user = caller?.user ?? null;
    request.sessionId = caller?.sessionId ?? null;
    request.secondStep = caller?.secondStep ?? false;
    requireAccess(access, request.user);
    if (app.config.adminSecondStep === 'required' && entersAsAdminOnly(access, request.user) && !request.secondStep) {
      const hasOne = await app.accountLookup.hasSecondStep(app.db, request.user!.id);
      throw forbidden(hasOne ? secondStepTexts.server.adminSignInAgain : secondStepTexts.server.adminSetUp);
    }
  };
}

/**
 * Whether the route lets the account in only as an admin: admin screens and calls then need a
 * session signed in with a second step (decision 38). A route it enters as a seller or buyer does not.
 */
function entersAsAdminOnly(access: Access, user: SignedInUser | null): boolean {
  if (!user || access === 'public' || access === 'signed-in' || !access.includes('admin')) return false;
  return !access.some((capability) => capability !== 'admin' && user.capabilities.includes(capability));
}

/** Refuses an account (or no account) the route's declared access does not let in. */
export function requireAccess(access: Access, user: SignedInUser | null) {
  if (access === 'public') return;
  if (!user) throw unauthorized();
  if (access !== 'signed-in' && !access.some((capability) => user.capabilities.includes(capability))) {
    throw forbidden(capabilityTexts.onlyFor(access));
  }
}

export function registerAccessControl(app: FastifyInstance, accountLookup: AccountLookup) {
  app.decorate('accountLookup', accountLookup);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('secondStep', false);
  app.decorate('apiRoutes', [] as ApiRoute[]);
  app.decorate('sessionCache', new VersionedCache<CachedSession>(app.dataVersions, CACHED_SESSIONS));
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
    for (const method of [route.method].flat()) app.apiRoutes.push({ method, url: route.url, access });
    const check = guard(app, access, route.config);
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [check, ...existing];
  });
}

/** Publishing a listing and paying need an e-mail its owner proved; `refusal` says so. */
export function requireVerifiedEmail(user: SignedInUser, refusal: string) {
  if (!user.emailVerified) throw forbidden(refusal);
}

/** The signed-in user of a route whose access is not 'public'. */
export function currentUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
