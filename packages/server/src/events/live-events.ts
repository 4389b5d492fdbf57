import { createHash, randomBytes } from 'node:crypto';
import { is, SQL, sql } from 'drizzle-orm';
import { LIVE_EVENT_TICKET_SECONDS, type LiveEvent } from '@furniture/contract';
import { announceAfterCommit, type Announcement } from '../db/announcements.ts';
import type { Database, Executor } from '../db/client.ts';

/**
 * Live events for people, stored and announced (decision 17). A domain publishes inside the
 * transaction of the change the event is about, after making it:
 *
 *   await db.transaction(async (tx) => {
 *     const message = await insertMessage(tx, ...);
 *     await publishLiveEvent(tx, { to: [sellerId], type: 'message.created', data: { conversationId, message } });
 *   });
 *
 * The event then exists exactly when the change commits, and reaches the addressees' open tabs on
 * every app server right after (announced once committed, decision 25; a hub that misses the
 * announcement finds the event on its next look). Publish once per transaction, at its end: publishing holds a lock per
 * addressee until the commit, so an early publish makes other publishers to the same people wait,
 * and two transactions publishing to the same two people in opposite order would deadlock.
 */

/** The NOTIFY channel: payloads are the addressees' ids, comma-separated. */
export const LIVE_EVENTS_CHANNEL = 'live_events';
/** Where a database trigger tells of each session that ended, `<user id>:<session id>` (migration 0030). */
export const SESSIONS_ENDED_CHANNEL = 'sessions_ended';
/** How long stored events are kept for clients that were away. */
export const LIVE_EVENT_RETENTION_DAYS = 7;
/** Addressees of one event, at most: an announcement to more people goes through a job, in batches. */
export const MAX_ADDRESSEES = 500;

const EVENT_TYPE = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;
/** User ids per NOTIFY payload, well under PostgreSQL's 8000-byte limit. */
const IDS_PER_NOTIFY = 100;

export interface LiveEventInput {
  /** The people the event is for: their user ids. */
  to: string | readonly string[];
  /** What happened, as `domain.what-happened`, e.g. `message.created`. */
  type: string;
  /** JSON the client receives as the event's data. */
  data: unknown;
}

/**
 * What a live event says, for `storeLiveEvents`: the same to each of its addressees. Its data may be
 * SQL, a json value of the statement that stores it (a booking's id, made by the same statement).
 */
export type LiveEventContent = Omit<LiveEventInput, 'to'>;

/** The addressees of a publication, each once, lower-case, in id order (the order their locks are taken). */
export function addresseesOf(to: LiveEventInput['to']): string[] {
  const addressees = [...new Set([to].flat().map((id) => id.toLowerCase()))].sort();
  if (addressees.length > MAX_ADDRESSEES) throw new Error(`A live event goes to at most ${MAX_ADDRESSEES} people; got ${addressees.length}`);
  return addressees;
}

/** Addressees (from `addresseesOf`) as the text[] `storeLiveEvents` takes. */
export const addresseeArray = (to: readonly string[]): SQL => sql`string_to_array(${to.join(',')}, ',')`;

/**
 * The insert that stores each of `events`, in their order, for each addressee: a statement of its
 * own, or a CTE of a statement that also makes the change (see `notify`). `to` is a text[] of user
 * ids in the order their locks are taken (`addresseeArray`, or one the statement computes).
 *
 * Ordering: ids come from one sequence, and a sequence hands out numbers in the order transactions
 * ask, not the order they commit. So publishing takes, per addressee, a transaction-scoped advisory
 * lock before drawing ids, held until the commit: the events of one person are then numbered in the
 * order they become visible, and a client that saw event N can ask for "after N" without ever
 * missing one that commits later with a smaller number. Locks are taken in id order, so that two
 * publications to overlapping groups queue rather than deadlock. Every row the insert writes reads
 * the count of locks taken, so no id is drawn before every lock is held.
 */
export function storeLiveEvents(to: SQL, events: readonly LiveEventContent[]): SQL {
  for (const event of events) {
    if (!EVENT_TYPE.test(event.type)) throw new Error(`Live event type "${event.type}" must look like "domain.what-happened"`);
  }
  const addressees = sql`unnest(${to}) with ordinality`;
  const rows = events.map((event, index) => {
    const data = is(event.data, SQL) ? sql`(${event.data})::jsonb` : sql`${JSON.stringify(event.data ?? null)}::jsonb`;
    return sql`(${event.type}::text, ${data}, ${index + 1}::int)`;
  });
  return sql`
    insert into live_events (user_id, type, data)
    select addressee::uuid, event.type, event.data
    from ${addressees} as addressees(addressee, position),
      (values ${sql.join(rows, sql`, `)}) as event(type, data, position),
      (select count(*) as held from (
        select pg_advisory_xact_lock(hashtextextended('live-events:' || addressee, 0))
        from ${addressees} as a(addressee, position) order by position
      ) as locks) as locked
    where locked.held > 0
    order by event.position, addressees.position`;
}

/** Announces, once the transaction of `db` commits, that the addressees have new events. */
export async function announceLiveEvents(db: Executor, to: readonly string[]): Promise<void> {
  await announceAfterCommit(db, liveEventsAnnouncement(to));
}

/** What tells the addressees' hubs of new events (`announceLiveEvents`), to send together with other announcements. */
export function liveEventsAnnouncement(to: readonly string[]): Announcement {
  const payloads: string[] = [];
  for (let i = 0; i < to.length; i += IDS_PER_NOTIFY) payloads.push(to.slice(i, i + IDS_PER_NOTIFY).join(','));
  return { channel: LIVE_EVENTS_CHANNEL, payloads };
}

/**
 * Stores the event for each addressee in one statement (atomic by itself when given the database
 * rather than a transaction), and announces it once the transaction commits.
 */
export async function publishLiveEvent(db: Executor, event: LiveEventInput): Promise<void> {
  const to = addresseesOf(event.to);
  if (to.length === 0) return;
  await db.execute(storeLiveEvents(addresseeArray(to), [event]));
  await announceLiveEvents(db, to);
}

/** A user's events after the given id, oldest first. */
export async function eventsAfter(db: Executor, userId: string, afterId: bigint, limit: number): Promise<Array<LiveEvent & { id: string }>> {
  const { rows } = await db.execute<{ id: string; type: string; data: unknown }>(sql`
    select live_events.id::text as id, type, data from live_events
    where user_id = ${userId} and live_events.id > ${afterId.toString()}::bigint
    order by live_events.id limit ${limit}`);
  return rows;
}

/** Of these users, those with an event after the id given for them. */
export async function usersWithEventsAfter(db: Executor, seen: ReadonlyArray<{ userId: string; afterId: bigint }>): Promise<string[]> {
  if (seen.length === 0) return [];
  const { rows } = await db.execute<{ user_id: string }>(sql`
    select seen.user_id::text from unnest(
      ${`{${seen.map((user) => user.userId).join(',')}}`}::uuid[],
      ${`{${seen.map((user) => user.afterId.toString()).join(',')}}`}::bigint[]
    ) as seen(user_id, after_id)
    where exists (select 1 from live_events where live_events.user_id = seen.user_id and live_events.id > seen.after_id)`);
  return rows.map((row) => row.user_id);
}

/** Where a client starts that has seen nothing yet: after the user's latest event (0 without one). */
export async function latestEventId(db: Executor, userId: string): Promise<bigint> {
  const { rows } = await db.execute<{ id: string | null }>(sql`select max(id)::text as id from live_events where user_id = ${userId}`);
  return BigInt(rows[0]?.id ?? 0);
}

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** A one-time ticket that opens the user's stream within LIVE_EVENT_TICKET_SECONDS. */
export async function issueTicket(db: Executor, userId: string): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const { rows } = await db.execute<{ expires_at: string }>(sql`
    insert into live_event_tickets (ticket_hash, user_id, expires_at)
    values (${hashTicket(ticket)}, ${userId}, now() + make_interval(secs => ${LIVE_EVENT_TICKET_SECONDS}))
    returning expires_at::text`);
  return { ticket, expiresAt: new Date(rows[0]!.expires_at) };
}

/** Uses a ticket up: the user it was issued to while it was valid, null otherwise. */
export async function redeemTicket(db: Executor, ticket: string): Promise<{ userId: string; expiresAt: Date } | null> {
  const { rows } = await db.execute<{ user_id: string; expires_at: string; valid: boolean }>(sql`
    delete from live_event_tickets where ticket_hash = ${hashTicket(ticket)}
    returning user_id, expires_at::text, expires_at > now() as valid`);
  const row = rows[0];
  return row?.valid ? { userId: row.user_id, expiresAt: new Date(row.expires_at) } : null;
}

/** Batch of rows one pruning statement deletes, so that no statement runs long. */
const PRUNE_BATCH = 5_000;

/** Deletes events older than the retention period, and expired tickets. Answers how many events went. */
export async function pruneLiveEvents(db: Database): Promise<number> {
  let pruned = 0;
  for (;;) {
    const { rowCount } = await db.execute(sql`
      delete from live_events where id in (
        select id from live_events
        where created_at < now() - make_interval(days => ${LIVE_EVENT_RETENTION_DAYS})
        limit ${PRUNE_BATCH})`);
    pruned += rowCount ?? 0;
    if ((rowCount ?? 0) < PRUNE_BATCH) break;
  }
  await db.execute(sql`delete from live_event_tickets where expires_at < now()`);
  return pruned;
}
