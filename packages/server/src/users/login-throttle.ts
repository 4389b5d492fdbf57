import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginThrottle } from '../db/schema/index.ts';
import { HttpError } from '../http/errors.ts';

/**
 * Failed sign-ins are counted per account and per address in PostgreSQL, so the limit holds
 * across every app server. Successful sign-ins are never counted.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 20,
} as const;

const keysFor = (email: string, address: string) => ({
  account: `account:${email}`,
  address: `address:${address}`,
});

/** Throws 429 with Retry-After when the account or the address used up its failed attempts. */
export async function assertLoginAllowed(db: Database, email: string, address: string): Promise<void> {
  const keys = keysFor(email, address);
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, [keys.account, keys.address]));
  const now = Date.now();
  let retryAfter = 0;
  for (const row of rows) {
    const limit = row.key === keys.account ? LOGIN_THROTTLE.maxFailuresPerAccount : LOGIN_THROTTLE.maxFailuresPerAddress;
    const windowEnds = row.windowStartedAt.getTime() + LOGIN_THROTTLE.windowSeconds * 1000;
    if (row.failures >= limit && windowEnds > now) retryAfter = Math.max(retryAfter, Math.ceil((windowEnds - now) / 1000));
  }
  if (retryAfter > 0) {
    const minutes = Math.ceil(retryAfter / 60);
    throw new HttpError(
      429,
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { 'retry-after': String(retryAfter) },
    );
  }
}

export async function recordLoginFailure(db: Database, email: string, address: string): Promise<void> {
  const keys = keysFor(email, address);
  const windowSeconds = LOGIN_THROTTLE.windowSeconds;
  // A window that has run out starts again at one failure.
  await db
    .insert(loginThrottle)
    .values([keys.account, keys.address].map((key) => ({ key, failures: 1, windowStartedAt: sql`now()` })))
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStartedAt} + make_interval(secs => ${windowSeconds}) <= now()
          then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} + make_interval(secs => ${windowSeconds}) <= now()
          then now() else ${loginThrottle.windowStartedAt} end`,
      },
    });
}

export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [`account:${email}`]));
}
