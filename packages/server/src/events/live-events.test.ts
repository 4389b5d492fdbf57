import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_EVENTS_PAGE_SIZE, LIVE_EVENTS_RETRY_MS, liveEventMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { openEventStream, type EventStreamClient } from '../../test/event-stream.ts';
import { buildApp } from '../app.ts';
import { createDatabase, type Database } from '../db/client.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';
import { liveEvents, liveEventTickets } from '../db/schema/index.ts';
import { nextOutcome } from '../jobs/job-clock.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import type { JobOutcome } from '../jobs/jobs-plugin.ts';
import { createAccessTokens } from '../users/access-tokens.ts';
import { HEARTBEAT_MS } from './live-event-routes.ts';
import { pruneLiveEventsTask } from './live-events-plugin.ts';
import { issueTicket, publishLiveEvent } from './live-events.ts';
import { endAllSessions, REFRESH_COOKIE, startSession } from '../users/refresh-tokens.ts';

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

const t = setupTestApp();

interface Server {
  app: FastifyInstance;
  db: Database;
  url: string;
}

const listen = async (app: FastifyInstance) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

/** Two app servers on this file's database, each with its own connection pool. */
const first = {} as Server;
const second = {} as Server & { close(): Promise<void> };
beforeAll(async () => {
  Object.assign(first, { app: t.app, db: t.db, url: await listen(t.app) });
  const { db, pool } = createDatabase(t.database.url, 5);
  const app = await buildApp({ config: t.config, db, jobs: { recurring: false } });
  Object.assign(second, { app, db, url: await listen(app), close: () => app.close().then(() => pool.end()) });
});
afterAll(() => second.close?.());

const streams: EventStreamClient[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

async function connect(server: Server, userId: string, headers: Record<string, string> = {}) {
  const stream = await openEventStream(`${server.url}/api/events`, { ...(await bearer(t.app, userId)), ...headers });
  streams.push(stream);
  expect(stream.status).toBe(200);
  const ready = await stream.next((event) => event.event === 'ready');
  return { stream, ready };
}

/** Publishes from a server, in a transaction of its own, as a domain would. */
const publish = (server: Server, to: string | string[], type: string, data: unknown) =>
  server.db.transaction((tx) => publishLiveEvent(tx, { to, type, data }));

const poll = async (userId: string, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/events${query}`, headers: { accept: 'application/json', ...(await bearer(t.app, userId)), ...headers } });

describe('GET /api/events (stream)', () => {
  it('opens a server-sent event stream with a retry hint and a ready event', async () => {
    const user = await createUser(t.db);
    const { stream, ready } = await connect(first, user.id);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.retry).toBe(LIVE_EVENTS_RETRY_MS);
    expect(ready).toEqual({ id: '0', event: 'ready', data: {} });
  });

  it('receives an event published by a second app server on the same database', async () => {
    const user = await createUser(t.db);
    const { stream, ready } = await connect(first, user.id);

    await publish(second, user.id, 'test.ping', { text: 'hello' });

    const event = await stream.next((e) => e.event !== 'ready');
    expect(event).toEqual({ id: expect.stringMatching(/^\d+$/), event: 'test.ping', data: { text: 'hello' } });
    expect(BigInt(event.id!)).toBeGreaterThan(BigInt(ready.id!));
  });

  it('reaches every open stream of the addressee, on whichever app server', async () => {
    const user = await createUser(t.db);
    const tabs = await Promise.all([connect(first, user.id), connect(first, user.id), connect(second, user.id)]);
    expect(first.app.liveEvents.streamCount(user.id)).toBe(2);
    expect(second.app.liveEvents.streamCount(user.id)).toBe(1);

    await publish(first, user.id, 'test.ping', { n: 1 });

    for (const { stream } of tabs) expect(await stream.next((e) => e.event === 'test.ping')).toMatchObject({ data: { n: 1 } });
  });

  it('reaches people whose ids are announced in a later NOTIFY of a large publication, published outside a transaction', async () => {
    const people = await Promise.all(Array.from({ length: 150 }, () => createUser(t.db, { password: null })));
    const ids = people.map((person) => person.id).sort();
    // The last ids in order go out in the second announcement (100 ids each).
    const { stream } = await connect(second, ids.at(-1)!);

    await publishLiveEvent(first.db, { to: ids, type: 'test.many', data: { n: 150 } });

    expect(await stream.next((e) => e.event === 'test.many')).toMatchObject({ data: { n: 150 } });
    const [stored] = await t.db.execute<{ count: string }>(sql`select count(*) from live_events where type = 'test.many'`).then((result) => result.rows);
    expect(Number(stored!.count)).toBe(150);
  });

  it('gives a client reconnecting with Last-Event-ID exactly the events it missed, in order', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const { stream } = await connect(first, user.id);
    await publish(first, user.id, 'test.seen', { n: 1 });
    const seen = await stream.next((e) => e.event === 'test.seen');
    stream.close();

    // While away: two events for this user (from both servers), one for someone else.
    await publish(second, user.id, 'test.missed', { n: 2 });
    await publish(first, other.id, 'test.not-mine', { n: 0 });
    await publish(first, [user.id, other.id], 'test.missed', { n: 3 });

    const { stream: resumed, ready } = await connect(second, user.id, { 'last-event-id': seen.id! });
    expect(ready.id).toBe(seen.id);
    await publish(first, user.id, 'test.after', { n: 4 });
    await resumed.next((e) => e.event === 'test.after');
    expect(resumed.events.filter((e) => e.event !== 'ready').map((e) => [e.event, e.data])).toEqual([
      ['test.missed', { n: 2 }],
      ['test.missed', { n: 3 }],
      ['test.after', { n: 4 }],
    ]);
    const ids = resumed.events.map((e) => BigInt(e.id!));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
  });

  it('never sends a user another user’s events, on the stream or by resuming from their ids', async () => {
    const [alice, bob] = await Promise.all([createUser(t.db), createUser(t.db)]);
    const { stream } = await connect(first, alice.id);
    await publish(second, bob.id, 'test.private', { secret: 'for bob' });
    await publish(second, alice.id, 'test.mine', { n: 1 });
    await stream.next((e) => e.event === 'test.mine');
    expect(stream.events.map((e) => e.event)).toEqual(['ready', 'test.mine']);

    // Resuming from before bob's event gives alice hers only.
    const { stream: resumed } = await connect(first, alice.id, { 'last-event-id': '0' });
    await resumed.next((e) => e.event === 'test.mine');
    expect(resumed.events.map((e) => e.event)).toEqual(['ready', 'test.mine']);
    const polled = (await poll(alice.id, '?after=0')).json();
    expect(polled.data.events.map((e: { type: string }) => e.type)).toEqual(['test.mine']);
  });

  it('sends a heartbeat comment so that proxies keep the stream open', async () => {
    const user = await createUser(t.db);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { stream } = await connect(first, user.id);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      // The heartbeat goes out before the event that follows it.
      await publish(first, user.id, 'test.after-heartbeat', {});
      await stream.next((e) => e.event === 'test.after-heartbeat');
      expect(stream.comments).toEqual(['heartbeat']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends when the access token that opened it expires, so that a session that ended stops receiving', async () => {
    const user = await createUser(t.db);
    // Issued 297 seconds ago: three seconds of validity left.
    const almostExpired = await createAccessTokens(t.db, { now: () => new Date(Date.now() - 297_000) });
    const { sessionId } = await startSession(t.db, user.id);
    const { stream } = await connect(first, user.id, { authorization: `bearer ${await almostExpired.issue({ userId: user.id, sessionId })}` });
    await stream.ended;
    expect(first.app.liveEvents.streamCount(user.id)).toBe(0);
  });

  it('ends every stream when the app closes, and the app closes', async () => {
    const { db, pool } = createDatabase(t.database.url, 3);
    const closing = await buildApp({ config: t.config, db, jobs: { recurring: false } });
    const server = { app: closing, db, url: await listen(closing) };
    const user = await createUser(t.db);
    const { stream } = await connect(server, user.id);

    await closing.close();
    await stream.ended;
    await pool.end();
  });

  it('answers 401 without a credential, and 400 for a Last-Event-ID that is not an event id', async () => {
    const anonymous = await openEventStream(`${first.url}/api/events`);
    expect(anonymous.status).toBe(401);
    const user = await createUser(t.db);
    const response = await t.app.inject({ method: 'GET', url: '/api/events', headers: { ...(await bearer(t.app, user.id)), 'last-event-id': 'abc' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: 'last-event-id: must be an event id' });
  });
});

describe('streams and the session that opened them', () => {
  /** Whether the stream ended within a second: the bound this product promises, not a wait for something to happen. */
  const endedWithinASecond = (stream: EventStreamClient) =>
    Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000).unref())]);

  it('end within a second of signing out on another app server, while another session’s stream goes on', async () => {
    const user = await createUser(t.db);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: DEFAULT_TEST_PASSWORD } });
    const cookie = login.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    const signedOut = await openEventStream(`${second.url}/api/events`, { authorization: `bearer ${login.json().token}` });
    streams.push(signedOut);
    await signedOut.next((event) => event.event === 'ready');
    const { stream: otherDevice } = await connect(second, user.id);

    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [REFRESH_COOKIE]: cookie } })).statusCode).toBe(200);
    expect(await endedWithinASecond(signedOut)).toBe(true);
    await publish(first, user.id, 'test.after-sign-out', { n: 1 });
    expect((await otherDevice.next((event) => event.event === 'test.after-sign-out')).data).toEqual({ n: 1 });
  });

  it('end within a second of every session ending (sign-out everywhere, a password change, a suspension) and of the account’s deletion', async () => {
    const user = await createUser(t.db);
    const { stream: one } = await connect(second, user.id);
    const { stream: other } = await connect(first, user.id);
    await endAllSessions(t.db, user.id);
    expect(await endedWithinASecond(one)).toBe(true);
    expect(await endedWithinASecond(other)).toBe(true);

    const deleted = await createUser(t.db);
    const { stream } = await connect(second, deleted.id);
    await t.db.execute(sql`delete from users where id = ${deleted.id}`);
    expect(await endedWithinASecond(stream)).toBe(true);
  });
});

describe('ordering under concurrent publication', () => {
  it('makes a second publication to the same person wait for the first to commit, so ids follow commit order', async () => {
    const user = await createUser(t.db);
    const { stream } = await connect(first, user.id);
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstPublished!: () => void;
    const published = new Promise<void>((resolve) => (firstPublished = resolve));

    const slow = first.db.transaction(async (tx) => {
      await publishLiveEvent(tx, { to: user.id, type: 'test.slow', data: {} });
      firstPublished();
      await firstMayCommit;
    });
    await published;
    const fast = publish(second, user.id, 'test.fast', {});
    // The second publication waits on the first one's lock for this person...
    await vi.waitFor(async () => {
      const { rows } = await t.db.execute(sql`select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`);
      expect(rows).toHaveLength(1);
    });
    // ...while publications to other people go on.
    await publish(second, (await createUser(t.db)).id, 'test.unrelated', {});
    commitFirst();
    await Promise.all([slow, fast]);

    await stream.next((e) => e.event === 'test.fast');
    const received = stream.events.filter((e) => e.event !== 'ready');
    expect(received.map((e) => e.event)).toEqual(['test.slow', 'test.fast']);
    expect(BigInt(received[0]!.id!)).toBeLessThan(BigInt(received[1]!.id!));
  });
});

describe('GET /api/events (polling)', () => {
  it('answers where to start, then the events after it, a page at a time', async () => {
    const user = await createUser(t.db);
    await publish(first, user.id, 'test.before', {});
    const start = await poll(user.id);
    expect(start.statusCode).toBe(200);
    const { lastEventId } = start.json().data;
    expect(start.json()).toEqual({ success: true, data: { events: [], lastEventId: expect.stringMatching(/^[1-9]\d*$/), hasMore: false } });

    for (let n = 1; n <= LIVE_EVENTS_PAGE_SIZE + 1; n++) await publish(second, user.id, 'test.numbered', { n });
    const firstPage = (await poll(user.id, `?after=${lastEventId}`)).json().data
    expect(firstPage.events).toHaveLength(LIVE_EVENTS_PAGE_SIZE);
    expect(firstPage.events[0]).toEqual({ id: expect.any(String), type: 'test.numbered', data: { n: 1 } });
    expect(firstPage.hasMore).toBe(true);
    expect(firstPage.lastEventId).toBe(firstPage.events.at(-1).id);

    const secondPage = (await poll(user.id, `?after=${firstPage.lastEventId}`)).json().data;
    expect(secondPage).toEqual({ events: [expect.objectContaining({ data: { n: LIVE_EVENTS_PAGE_SIZE + 1 } })], lastEventId: expect.any(String), hasMore: false });
    const idle = (await poll(user.id, `?after=${secondPage.lastEventId}`)).json().data;
    expect(idle).toEqual({ events: [], lastEventId: secondPage.lastEventId, hasMore: false });
    // Last-Event-ID works for polling too.
    const byHeader = (await poll(user.id, '', { 'last-event-id': firstPage.lastEventId })).json().data;
    expect(byHeader.events).toEqual(secondPage.events);
  });

  it('refuses an after that is not an event id', async () => {
    const user = await createUser(t.db);
    const response = await poll(user.id, '?after=-1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'after: must be an event id' });
  });

  it('refuses an after or Last-Event-ID beyond the largest event id there can be, and takes the largest', async () => {
    const user = await createUser(t.db);
    for (const [query, headers, field] of [
      ['?after=9223372036854775808', {}, 'after'],
      ['?after=99999999999999999999999', {}, 'after'],
      ['', { 'last-event-id': '9999999999999999999' }, 'last-event-id'],
    ] as const) {
      const response = await poll(user.id, query, headers);
      expect(response.statusCode, query || headers['last-event-id']).toBe(400);
      expect(response.json()).toMatchObject({ message: `${field}: must be an event id` });
    }
    const largest = await poll(user.id, '?after=9223372036854775807');
    expect(largest.statusCode).toBe(200);
    expect(largest.json().data).toEqual({ events: [], lastEventId: '9223372036854775807', hasMore: false });
  });
});

describe('tickets for EventSource', () => {
  const ticketFor = async (userId: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/events/ticket', headers: await bearer(t.app, userId) });
    expect(response.statusCode).toBe(201);
    return response.json().data as { ticket: string; expiresAt: string };
  };

  it('opens the stream of the user it was issued to, once', async () => {
    const user = await createUser(t.db);
    const { ticket, expiresAt } = await ticketFor(user.id);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

    const stream = await openEventStream(`${first.url}/api/events?ticket=${ticket}`);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'ready');
    await publish(second, user.id, 'test.by-ticket', { ok: true });
    expect(await stream.next((e) => e.event === 'test.by-ticket')).toMatchObject({ data: { ok: true } });

    const again = await t.app.inject({ method: 'GET', url: `/api/events?ticket=${ticket}`, headers: { accept: 'application/json' } });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ success: false, message: liveEventMessages.ticketInvalid });
  });

  it('refuses an expired ticket and an unknown one', async () => {
    const user = await createUser(t.db);
    const { ticket } = await ticketFor(user.id);
    await t.db.execute(sql`update live_event_tickets set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    for (const candidate of [ticket, 'not-a-ticket']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/events?ticket=${candidate}`, headers: { accept: 'application/json' } });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(liveEventMessages.ticketInvalid);
    }
  });
});

describe('pruning', () => {
  it('deletes events past the retention period and expired tickets, through its recurring job', async () => {
    const user = await createUser(t.db);
    await publish(first, user.id, 'test.old', {});
    await publish(first, user.id, 'test.recent', {});
    await t.db.execute(sql`update live_events set created_at = now() - interval '8 days' where user_id = ${user.id} and type = 'test.old'`);

    const { ticket: expired } = await issueTicket(t.db, user.id);
    const { ticket: valid } = await issueTicket(t.db, user.id);
    await t.db.execute(sql`update live_event_tickets set expires_at = now() - interval '1 second' where ticket_hash = ${hashOf(expired)}`);

    // A tick of the schedule: one job, run by one of the two app servers.
    const isPrune = (outcome: JobOutcome) => outcome.task === pruneLiveEventsTask.name;
    const done = Promise.race([nextOutcome(first.app, isPrune), nextOutcome(second.app, isPrune)]);
    await enqueueJob(t.db, pruneLiveEventsTask, { tick: new Date().toISOString() });
    expect(await done).toMatchObject({ status: 'succeeded' });

    const left = await t.db.select({ type: liveEvents.type }).from(liveEvents).where(eq(liveEvents.userId, user.id));
    expect(left).toEqual([{ type: 'test.recent' }]);
    const tickets = await t.db.select({ hash: liveEventTickets.ticketHash }).from(liveEventTickets).where(eq(liveEventTickets.userId, user.id));
    expect(tickets).toEqual([{ hash: hashOf(valid) }]);
  });
});
