import type { Database } from '../db/client.ts';
import { assertUnderLimits, countTowardLimits, currentCounts, enforceLimit, RATE_LIMITS, resetLimits, type LimitedBy } from '../http/rate-limit.ts';

const { signInFailuresPerAccountAtAddress, signInFailuresPerAccount, signInFailuresPerAddress, signInPacePerAccount } = RATE_LIMITS;

/**
 * Failed sign-ins are counted in PostgreSQL (http/rate-limit.ts), so the limits hold across every
 * app server; successful sign-ins are never counted. Nobody can lock an owner out (decision 35):
 * an address that keeps failing is refused for that account, an address that fails on many
 * accounts is refused for all, and an account failed on from many addresses is only paced, for
 * the addresses that failed on it. The owner signs in from an address with no failures at once.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: signInFailuresPerAccountAtAddress.windowSeconds,
  maxFailuresPerAccountAtAddress: signInFailuresPerAccountAtAddress.max,
  maxFailuresPerAddress: signInFailuresPerAddress.max,
  paceAfterFailuresPerAccount: signInFailuresPerAccount.max,
  paceSeconds: signInPacePerAccount.windowSeconds,
} as const;

const counters = (email: string, address: string) => ({
  pair: { limit: signInFailuresPerAccountAtAddress, subject: `${email}|${address}` } satisfies LimitedBy,
  address: { limit: signInFailuresPerAddress, subject: address } satisfies LimitedBy,
  account: { limit: signInFailuresPerAccount, subject: email } satisfies LimitedBy,
});

/** Throws 429 with Retry-After when this address may not try this account now. */
export async function assertLoginAllowed(db: Database, email: string, address: string): Promise<void> {
  const { pair, address: fromAddress, account } = counters(email, address);
  await assertUnderLimits(db, [pair, fromAddress]);
  const [pairFailures, accountFailures] = await currentCounts(db, [pair, account]);
  if (pairFailures! > 0 && accountFailures! >= account.limit.max) {
    await enforceLimit(db, { limit: signInPacePerAccount, subject: email });
  }
}

export async function recordLoginFailure(db: Database, email: string, address: string): Promise<void> {
  const { pair, address: fromAddress, account } = counters(email, address);
  await countTowardLimits(db, [pair, fromAddress, account]);
}

/** The owner got in: this address's failures on the account, and the account's, are forgotten. */
export async function clearLoginFailures(db: Database, email: string, address: string): Promise<void> {
  const { pair, account } = counters(email, address);
  await resetLimits(db, [pair, account]);
}
