import { accountTexts, secondStepTexts, serverMessages } from '@furniture/contract';
import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema/index.ts';
import { HttpError } from './errors.ts';

/** At most `max` counted events per subject (an account, an address) within a window. */
export interface RateLimit {
  /** Starts the key of each of its counters, `<prefix>:<subject>`: unique per limit, without a colon. */
  readonly prefix: string;
  readonly max: number;
  readonly windowSeconds: number;
  /** The first sentence of the 429's message; "Try again in N minutes." follows it. */
  readonly tooMany: string;
}

/**
 * Every rate limit of the API. They are counted in PostgreSQL, so each holds across all app
 * servers, and set well above what a person does: they stop password guessing and the abuse of
 * calls that cost CPU, never an ordinary user.
 */
export const RATE_LIMITS = {
  /**
   * Failed sign-ins with one e-mail from one address; successful sign-ins are never counted. The
   * address is refused for that account, the owner elsewhere is not (decision 35).
   */
  signInFailuresPerAccountAtAddress: {
    prefix: 'account-address',
    max: 5,
    windowSeconds: 15 * 60,
    tooMany: serverMessages.tooMany.signInFailures,
  },
  /** Failed sign-ins with one e-mail from any address: past `max`, the account's sign-ins are paced. */
  signInFailuresPerAccount: {
    prefix: 'account',
    max: 10,
    windowSeconds: 15 * 60,
    tooMany: serverMessages.tooMany.signInFailures,
  },
  /**
   * Sign-ins of an account under attack (over signInFailuresPerAccount) from addresses that have
   * failed on it: one every few seconds, whoever sends them. An address with no failures is not paced.
   */
  signInPacePerAccount: {
    prefix: 'account-pace',
    max: 1,
    windowSeconds: 3,
    tooMany: serverMessages.tooMany.signInPace,
  },
  /** Failed sign-ins from one address, whatever the e-mail. */
  signInFailuresPerAddress: {
    prefix: 'address',
    max: 20,
    windowSeconds: 15 * 60,
    tooMany: serverMessages.tooMany.signInFailures,
  },
  /** Images one account sends to POST /api/images; each is decoded and re-encoded. */
  imageUploadsPerAccount: {
    prefix: 'image-uploads',
    max: 30,
    windowSeconds: 10 * 60,
    tooMany: serverMessages.tooMany.uploads,
  },
  /** Sign-ups from one address whose photo is a file, which goes through the image pipeline. */
  photoSignUpsPerAddress: {
    prefix: 'photo-sign-ups',
    max: 10,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.signUps,
  },
  /** Sign-ups from one address: accounts are made only by people, not by the hundred. */
  signUpsPerAddress: {
    prefix: 'sign-ups',
    max: 20,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.signUps,
  },
  /** Looking up accounts by e-mail (GET /api/user) other than one's own, from one address. */
  accountLookupsPerAddress: {
    prefix: 'account-lookups',
    max: 60,
    windowSeconds: 10 * 60,
    tooMany: serverMessages.tooMany.accountLookups,
  },
  /** Messages one account sends in conversations. */
  messagesPerAccount: {
    prefix: 'messages',
    max: 30,
    windowSeconds: 60,
    tooMany: serverMessages.tooMany.messages,
  },
  /** Offers and counter-offers one account makes. */
  offersPerAccount: {
    prefix: 'offers',
    max: 10,
    windowSeconds: 60,
    tooMany: serverMessages.tooMany.offers,
  },
  /** Links to choose a new password asked for one e-mail, whether or not it has an account. */
  resetLinksPerEmail: {
    prefix: 'reset-links',
    max: 3,
    windowSeconds: 60 * 60,
    tooMany: accountTexts.server.tooManyResetLinks,
  },
  /** Links to choose a new password asked for from one address, whatever the e-mail. */
  resetLinksPerAddress: {
    prefix: 'reset-links-address',
    max: 10,
    windowSeconds: 60 * 60,
    tooMany: accountTexts.server.tooManyResetLinks,
  },
  /** Verification links one account asks to be sent again. */
  verifyLinksPerAccount: {
    prefix: 'verify-links',
    max: 3,
    windowSeconds: 60 * 60,
    tooMany: accountTexts.server.tooManyVerifyLinks,
  },
  /** Passkey challenges asked for from one address: each is a row until it is used or expires. */
  /** Wrong codes of an authenticator app and wrong recovery codes, per account (decision 38). */
  secondStepFailuresPerAccount: {
    prefix: 'second-step-failures',
    max: 5,
    windowSeconds: 15 * 60,
    tooMany: secondStepTexts.server.tooManyCodes,
  },
  passkeyRequestsPerAddress: {
    prefix: 'passkey-requests',
    max: 60,
    windowSeconds: 10 * 60,
    tooMany: accountTexts.server.tooManyPasskeyRequests,
  },
  /** Bookings made and cancelled by one account: each tells a seller, by notification and e-mail. */
  bookingChangesPerAccount: {
    prefix: 'booking-changes',
    max: 30,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.bookings,
  },
  /** Bookings made and cancelled by one account of one seller's pieces: what one person can make another be told. */
  bookingChangesPerSeller: {
    prefix: 'booking-changes-seller',
    max: 10,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.bookingsOfSeller,
  },
  /** Catalogue searches the server answers (not its cache) for one address. */
  searchesPerAddress: {
    prefix: 'searches',
    max: 300,
    windowSeconds: 60,
    tooMany: serverMessages.tooMany.searches,
  },
  /** Live event tickets and streams one account opens: a tab reconnects a few times an hour. */
  liveConnectionsPerAccount: {
    prefix: 'live-connections',
    max: 60,
    windowSeconds: 10 * 60,
    tooMany: serverMessages.tooMany.liveUpdates,
  },
  /** Reports one account files. */
  reportsPerAccount: {
    prefix: 'reports',
    max: 20,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.reports,
  },
  /** Conversations one account starts (asking again about the same piece starts none). */
  conversationsPerAccount: {
    prefix: 'conversations',
    max: 30,
    windowSeconds: 60 * 60,
    tooMany: serverMessages.tooMany.conversations,
  },
} as const satisfies Record<string, RateLimit>;

/** One limit applied to one subject: one counter. */
export interface LimitedBy {
  limit: RateLimit;
  subject: string;
}

const keyOf = ({ limit, subject }: LimitedBy) => `${limit.prefix}:${subject}`;

// Seconds since the counter's window started, by the database's clock, which also started it.
const elapsedSeconds = sql<number>`extract(epoch from now() - ${rateLimitCounters.windowStartedAt})::float8`.mapWith(Number);

function tooManyRequests(limit: RateLimit, retryAfterSeconds: number): HttpError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  // A wait of a few seconds is told so, not as a minute.
  const when = retryAfterSeconds <= 10 ? serverMessages.tryAgainShortly : serverMessages.tryAgainIn(minutes);
  return new HttpError(429, `${limit.tooMany} ${when}`, {
    'retry-after': String(retryAfterSeconds),
  });
}

/**
 * Throws 429 with Retry-After (the longest wait) when any of these counters is used up, without
 * counting anything: for limits that count only some outcomes, such as failed sign-ins.
 */
export async function assertUnderLimits(db: Executor, checks: LimitedBy[]): Promise<void> {
  const limitOfKey = new Map(checks.map((check) => [keyOf(check), check.limit]));
  const rows = await db
    .select({ key: rateLimitCounters.key, count: rateLimitCounters.count, elapsed: elapsedSeconds })
    .from(rateLimitCounters)
    .where(inArray(rateLimitCounters.key, [...limitOfKey.keys()]));
  let refusal: { limit: RateLimit; retryAfter: number } | undefined;
  for (const row of rows) {
    const limit = limitOfKey.get(row.key)!;
    const retryAfter = Math.ceil(limit.windowSeconds - row.elapsed);
    if (row.count >= limit.max && retryAfter > (refusal?.retryAfter ?? 0)) refusal = { limit, retryAfter };
  }
  if (refusal) throw tooManyRequests(refusal.limit, refusal.retryAfter);
}

/** How many events each of these counters holds in its current window (0 once the window is over). */
export async function currentCounts(db: Executor, checks: LimitedBy[]): Promise<number[]> {
  const rows = await db
    .select({ key: rateLimitCounters.key, count: rateLimitCounters.count, elapsed: elapsedSeconds })
    .from(rateLimitCounters)
    .where(inArray(rateLimitCounters.key, checks.map(keyOf)));
  return checks.map((check) => {
    const row = rows.find((candidate) => candidate.key === keyOf(check));
    return row && row.elapsed < check.limit.windowSeconds ? row.count : 0;
  });
}

/** Counts one event on a counter, in one statement; a window that has run out starts again at one. */
async function countEvent(db: Executor, event: LimitedBy): Promise<{ count: number; elapsed: number }> {
  const windowOver = sql`${rateLimitCounters.windowStartedAt} + make_interval(secs => ${event.limit.windowSeconds}) <= now()`;
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key: keyOf(event), count: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimitCounters.count} + 1 end`,
        windowStartedAt: sql`case when ${windowOver} then now() else ${rateLimitCounters.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimitCounters.count, elapsed: elapsedSeconds });
  return row!;
}

/** Counts one event on each of these counters. */
export async function countTowardLimits(db: Executor, events: LimitedBy[]): Promise<void> {
  await Promise.all(events.map((event) => countEvent(db, event)));
}

/**
 * Counts this request and throws 429 with Retry-After when it goes over the limit. Counting and
 * checking are one statement, so simultaneous requests on several app servers cannot all slip
 * under the limit. Call it before the costly work, so a refused request costs nothing more.
 */
export async function enforceLimit(db: Executor, event: LimitedBy): Promise<void> {
  const { count, elapsed } = await countEvent(db, event);
  if (count > event.limit.max) {
    throw tooManyRequests(event.limit, Math.max(1, Math.ceil(event.limit.windowSeconds - elapsed)));
  }
}

/** Takes back one counted event on each of these counters, for a request that was refused after all. */
export async function uncountEvents(db: Executor, events: LimitedBy[]): Promise<void> {
  for (const event of events) {
    await db
      .update(rateLimitCounters)
      .set({ count: sql`greatest(${rateLimitCounters.count} - 1, 0)` })
      .where(sql`${rateLimitCounters.key} = ${keyOf(event)}`);
  }
}

/** Forgets these counters, e.g. an account's failed sign-ins once it signs in. */
export async function resetLimits(db: Executor, counters: LimitedBy[]): Promise<void> {
  await db.delete(rateLimitCounters).where(inArray(rateLimitCounters.key, counters.map(keyOf)));
}
