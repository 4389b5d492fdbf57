import type { Database } from '../db/client.ts';
import { assertUnderLimits, countTowardLimits, RATE_LIMITS, resetLimits, type LimitedBy } from '../http/rate-limit.ts';

const { signInFailuresPerAccount, signInFailuresPerAddress } = RATE_LIMITS;

/**
 * Failed sign-ins are counted per account and per address (http/rate-limit.ts), so the limit
 * holds across every app server. Successful sign-ins are never counted.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: signInFailuresPerAccount.windowSeconds,
  maxFailuresPerAccount: signInFailuresPerAccount.max,
  maxFailuresPerAddress: signInFailuresPerAddress.max,
} as const;

const accountCounter = (email: string): LimitedBy => ({ limit: signInFailuresPerAccount, subject: email });
const countersFor = (email: string, address: string): LimitedBy[] => [
  accountCounter(email),
  { limit: signInFailuresPerAddress, subject: address },
];

/** Throws 429 with Retry-After when the account or the address used up its failed attempts. */
export async function assertLoginAllowed(db: Database, email: string, address: string): Promise<void> {
  await assertUnderLimits(db, countersFor(email, address));
}

export async function recordLoginFailure(db: Database, email: string, address: string): Promise<void> {
  await countTowardLimits(db, countersFor(email, address));
}

export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await resetLimits(db, [accountCounter(email)]);
}
