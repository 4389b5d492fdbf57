import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { refreshTokens, users } from '../db/schema/index.ts';
import type { UserRow } from './user-repository.ts';

export const REFRESH_COOKIE = 'furniture_refresh';
export const REFRESH_TOKEN_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The browser and address a session was last used from, shown in the account's list of sessions. */
export interface SessionClient {
  userAgent?: string | undefined;
  address?: string | undefined;
}

async function insertToken(
  db: Executor,
  userId: string,
  familyId: string,
  token = randomBytes(32).toString('base64url'),
  client: SessionClient = {},
  secondStep = false,
): Promise<string> {
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_MAX_AGE_SECONDS * 1000),
    userAgent: client.userAgent?.slice(0, 512),
    address: client.address,
    secondStep,
  });
  return token;
}

/**
 * Starts a new session for a user: a new token family, whose id is the session's id. The access
 * tokens of the session carry it, so ending the family ends them too. `secondStep`: the sign-in
 * passed a second step (decision 38); every renewal of the session keeps it.
 */
export async function startSession(
  db: Database,
  userId: string,
  client?: SessionClient,
  { secondStep = false }: { secondStep?: boolean } = {},
): Promise<{ token: string; sessionId: string }> {
  const sessionId = randomUUID();
  return { token: await insertToken(db, userId, sessionId, undefined, client, secondStep), sessionId };
}

export type RotationResult =
  | { userId: string; sessionId: string; token: string }
  | { error: 'unknown' | 'expired' | 'reused' };

/**
 * How long a used token still renews the session. The answer to a refresh can be lost (the page
 * navigated away, the network dropped) after the server rotated the token; the browser then still
 * holds the used one. Within this window that is not taken for theft.
 */
export const REUSE_GRACE_SECONDS = 30;

/**
 * Exchanges a refresh token for a new one of the same family. The old token is marked used in the
 * same statement that checks it. A used token presented again within the grace window gets the
 * same successor it got the first time; after it, it means the token was stolen, and the whole
 * family is revoked.
 */
export async function rotateSession(
  db: Database,
  token: string,
  keyedHash: (text: string) => Promise<string>,
  client?: SessionClient,
): Promise<RotationResult> {
  // The successor is derived from the token with the server's key, so a replay within the grace
  // window is answered the same successor, not a second chain (only hashes are stored, and
  // without the key a stolen token tells nothing of the next).
  const successor = await keyedHash(`refresh-successor:${token}`);
  return db.transaction(async (tx) => {
    const tokenHash = hashToken(token);
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning();
    if (claimed) {
      if (claimed.expiresAt.getTime() <= Date.now()) return { error: 'expired' };
      return { userId: claimed.userId, sessionId: claimed.familyId, token: await insertToken(tx, claimed.userId, claimed.familyId, successor, client, claimed.secondStep) };
    }
    const [existing] = await tx
      .select({
        userId: refreshTokens.userId,
        familyId: refreshTokens.familyId,
        used: sql<boolean>`${refreshTokens.usedAt} is not null`,
        revoked: sql<boolean>`${refreshTokens.revokedAt} is not null`,
        withinGrace: sql<boolean>`${refreshTokens.usedAt} > now() - make_interval(secs => ${REUSE_GRACE_SECONDS})
          and ${refreshTokens.expiresAt} > now()`,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (!existing) return { error: 'unknown' };
    if (existing.revoked || !existing.used) return { error: 'expired' };
    if (existing.withinGrace) return { userId: existing.userId, sessionId: existing.familyId, token: successor };
    await tx
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.familyId, existing.familyId), isNull(refreshTokens.revokedAt)));
    return { error: 'reused' };
  });
}

/** Ends the session the token belongs to (its whole family). */
export async function endSession(db: Database, token: string): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  if (!row) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * The account of an access token and its session, in one query: the user (undefined when the
 * account is gone), until when the session is open (null when it has ended: signed out, revoked
 * for reuse or expired), so its access tokens are refused at once, and whether its sign-in passed
 * a second step.
 */
export async function findSessionUser(
  db: Executor,
  userId: string,
  sessionId: string,
): Promise<{ user: UserRow; sessionEndsAt: number | null; secondStep: boolean } | undefined> {
  const [row] = await db
    .select({
      user: users,
      // Epoch milliseconds of the latest end of the family's live tokens, if that is still ahead.
      sessionEndsAt: sql<number | null>`(
        select (extract(epoch from max(${refreshTokens.expiresAt})) * 1000)::float8 from ${refreshTokens}
        where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${userId}
          and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`,
      secondStep: sql<boolean>`coalesce((
        select bool_or(${refreshTokens.secondStep}) from ${refreshTokens}
        where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${userId}), false)`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Ends every session of a user: each device is signed out and its access tokens stop working. */
export async function endAllSessions(db: Executor, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** The user a refresh token belongs to, without using it up (for reading, not for rotating). */
export async function sessionOwner(db: Database, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tokenHash, hashToken(token)),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        sql`${refreshTokens.expiresAt} > now()`,
      ),
    );
  return row?.userId;
}
