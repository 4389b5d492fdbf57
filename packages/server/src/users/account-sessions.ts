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
