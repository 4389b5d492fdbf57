import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { accountTexts } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { accountTokens, type accountTokenPurposes } from '../db/schema/index.ts';
import { badRequest } from '../http/errors.ts';

export type AccountTokenPurpose = (typeof accountTokenPurposes)[number];

/**
 * A token is found by its SHA-256 hash, never compared as text: what a guess shares with a real
 * token tells nothing about how long the lookup takes, and the database holds no usable token.
 */
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A new single-use token for a link e-mailed to `email`, valid for `hours`. */
export async function issueAccountToken(
  db: Executor,
  { userId, purpose, email, hours }: { userId: string; purpose: AccountTokenPurpose; email: string; hours: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(accountTokens).values({
    userId,
    purpose,
    email,
    tokenHash: hashOf(token),
    expiresAt: sql`now() + make_interval(hours => ${hours})`,
  });
  return token;
}

/**
 * Uses up a token of this purpose: answers whose it is and the address its link was sent to, or
 * throws 400 saying why it cannot be used (unknown or forged, used, expired). Call it in the
 * transaction of the change it allows, so a failed change leaves the token unused.
 */
export async function useAccountToken(db: Executor, purpose: AccountTokenPurpose, token: string): Promise<{ userId: string; email: string }> {
  const tokenHash = hashOf(token);
  const [claimed] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)))
    .returning({ userId: accountTokens.userId, email: accountTokens.email, expired: sql<boolean>`${accountTokens.expiresAt} <= now()` });
  if (claimed) {
    if (claimed.expired) throw badRequest(accountTexts.server.linkExpired);
    return { userId: claimed.userId, email: claimed.email };
  }
  const [used] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose)));
  throw badRequest(used ? accountTexts.server.linkUsed : accountTexts.server.linkInvalid);
}

/** Uses up every other open token of this purpose of an account (a reset ends the other reset links). */
export async function useUpAccountTokens(db: Executor, userId: string, purpose: AccountTokenPurpose): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}
