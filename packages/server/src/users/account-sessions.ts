import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { refreshTokens } from '../db/schema/index.ts';

/**
 * The open sessions of an account, most recently used first: each token family whose newest token
 * is neither revoked nor expired, with the browser and address of that token (every renewal writes
 * a new one, so it is where the session was last used).
 */
export async function listOpenSessions(db: Executor, userId: string) {
  return db
    .selectDistinctOn([refreshTokens.familyId], {
      familyId: refreshTokens.familyId,
      userAgent: refreshTokens.userAgent,
      address: refreshTokens.address,
      lastSeenAt: refreshTokens.createdAt,
    })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), sql`${refreshTokens.expiresAt} > now()`))
    .orderBy(refreshTokens.familyId, desc(refreshTokens.createdAt))
    .then((rows) => rows.sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime()));
}

/** Ends one session of the account; answers whether it had one of that id open. */
export async function endSessionOf(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  const ended = await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, sessionId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return ended.length > 0;
}

/** Ends every session of the account but one (the caller's own, when it has one). */
export async function endOtherSessions(db: Executor, userId: string, keptSessionId: string | null): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keptSessionId ? ne(refreshTokens.familyId, keptSessionId) : undefined,
      ),
    );
}

/**
 * Whether the account has signed in before, but never from this browser at this address: its
 * owner is then told of the sign-in. The account's first sign-in is no news.
 */
export async function isNewDevice(db: Executor, userId: string, client: { userAgent?: string; address?: string }): Promise<boolean> {
  const [seen] = await db
    .select({
      before: sql<boolean>`count(*) > 0`,
      here: sql<boolean>`bool_or(${refreshTokens.userAgent} is not distinct from ${client.userAgent ?? null} and ${refreshTokens.address} is not distinct from ${client.address ?? null})`,
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.userId, userId));
  return Boolean(seen?.before) && !seen?.here;
}
