import type pg from 'pg';
import { poolOf, type Database, type Executor, type Transaction } from './client.ts';

/**
 * NOTIFYs sent after the transaction that asks for them has committed, not inside it (decision 25).
 *
 * PostgreSQL takes one server-wide lock when a transaction that sent a NOTIFY commits and holds it
 * to the commit's end, WAL flush included: every commit that notifies waits for the one before it.
 * A notification carries nothing durable (it is a doorbell: what it announces is in tables), so
 * writes announce from a statement of their own once committed, with `synchronous_commit` off for
 * it alone, and commits that matter are flushed together again.
 *
 * The price: a crash (or a lost connection) between a commit and its announcement loses the
 * announcement. Whoever listens must therefore also look by themselves now and then (the job
 * workers poll, live event hubs catch up): a lost announcement delays what it announces, never
 * loses it. Caches whose readers must see a write at once (decision 24) notify inside the commit.
 */

/** Payloads per channel that a transaction will announce once it commits. */
type Pending = Map<string, Set<string>>;

const pendingOf = new WeakMap<Executor, Pending>();

/** Payloads to send on one channel. */
export interface Announcement {
  channel: string;
  payloads: readonly string[];
}

function add(pending: Pending, { channel, payloads }: Announcement) {
  const channelPayloads = pending.get(channel) ?? new Set();
  for (const payload of payloads) channelPayloads.add(payload);
  pending.set(channel, channelPayloads);
}

/**
 * Makes the announcements once the transaction `db` commits (nothing if it rolls back), or at once
 * when `db` is the database itself: all of them in one statement, so that a write announcing on
 * several channels pays one round trip. Identical announcements of one transaction go once.
 */
export async function announceAfterCommit(db: Executor, ...announcements: Announcement[]): Promise<void> {
  const pending = pendingOf.get(db);
  if (pending) {
    for (const announcement of announcements) add(pending, announcement);
    return;
  }
  const now: Pending = new Map();
  for (const announcement of announcements) add(now, announcement);
  await send(poolOf(db as Database), now);
}

// A named statement: parsed and planned once per connection.
const announceStatement = {
  name: 'announce-after-commit',
  text: `select set_config('synchronous_commit', 'off', true), pg_notify(channel, payload)
    from unnest($1::text[], $2::text[]) as announcement(channel, payload)`,
};

async function send(pool: pg.Pool, pending: Pending): Promise<void> {
  const channels: string[] = [];
  const payloads: string[] = [];
  for (const [channel, channelPayloads] of pending) {
    for (const payload of channelPayloads) {
      channels.push(channel);
      payloads.push(payload);
    }
  }
  if (channels.length === 0) return;
  // Not the writer's failure: what it announces is committed, and listeners find it by looking.
  await pool.query({ ...announceStatement, values: [channels, payloads] }).catch(() => undefined);
}

/**
 * Makes every transaction of `db` (savepoints included, which share their transaction's) collect
 * its announcements and send them once it has committed, before the transaction call returns.
 */
export function announceAfterCommits(db: Database): void {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run, config) => {
    const pending: Pending = new Map();
    const result = await transaction((tx) => {
      collect(tx, pending);
      return run(tx);
    }, config);
    await send(poolOf(db), pending);
    return result;
  }) as Database['transaction'];
}

function collect(tx: Transaction, pending: Pending) {
  pendingOf.set(tx, pending);
  const savepoint = tx.transaction.bind(tx);
  tx.transaction = ((run: (inner: Transaction) => Promise<unknown>) =>
    savepoint((inner) => {
      collect(inner, pending);
      return run(inner);
    })) as Transaction['transaction'];
}
