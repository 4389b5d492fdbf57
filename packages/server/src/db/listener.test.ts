import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createDatabaseListener } from './listener.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const notify = (...pairs: Array<[channel: string, payload: string]>) =>
  database.pool.query(`select ${pairs.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`).join(', ')}`, pairs.flat());

/** Records the text of every query any pg client sends, until `spy.mockRestore()`. */
function recordQueries() {
  const sent: unknown[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    sent.push(args[0]);
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  return { sent, spy };
}

describe('the database listener', () => {
  it('hears its channels, and after losing its connection reconnects, listens again and says so', async () => {
    const { listener, start, close } = createDatabaseListener({ connectionString: database.url }, Fastify().log);
    try {
      const heard: string[] = [];
      const done: string[] = [];
      const stopHearing = await listener.subscribe('test_channel', (payload) => heard.push(payload));
      await start();
      await listener.subscribe('test_done', (payload) => done.push(payload));
      await notify(['test_channel', 'one']);
      await vi.waitFor(() => expect(heard).toEqual(['one']));

      const reconnected = new Promise<void>((resolve) => listener.onReconnect(resolve));
      await database.pool.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`);
      await reconnected;
      await notify(['test_channel', 'two']);
      await vi.waitFor(() => expect(heard).toEqual(['one', 'two']));

      // Another subscriber of the channel leaving changes nothing for this one.
      const stopOther = await listener.subscribe('test_channel', () => undefined);
      await stopOther();
      await notify(['test_channel', 'three'], ['test_done', 'first']);
      await vi.waitFor(() => expect(done).toEqual(['first']));
      expect(heard).toEqual(['one', 'two', 'three']);

      // Its last subscriber gone, the channel is not heard: a notification sent before the sentinel
      // would have arrived before it.
      await stopHearing();
      await notify(['test_channel', 'four'], ['test_done', 'second']);
      await vi.waitFor(() => expect(done).toEqual(['first', 'second']));
      expect(heard).toEqual(['one', 'two', 'three']);
    } finally {
      await close();
    }
  });

  it('catches up: once catchUp resolves, every notification committed before it has been heard', async () => {
    const { listener, start, close } = createDatabaseListener({ connectionString: database.url }, Fastify().log);
    try {
      const heard: string[] = [];
      await listener.subscribe('test_catch_up', (payload) => heard.push(payload));
      await start();
      for (let round = 0; round < 50; round++) {
        await notify(['test_catch_up', `round ${round}`]);
        // Several readers at once share round trips; each still sees what was committed before it asked.
        const caughtUp = await Promise.all([listener.catchUp(), listener.catchUp(), listener.catchUp()]);
        expect(caughtUp).toEqual([true, true, true]);
        expect(heard.at(-1)).toBe(`round ${round}`);
      }
    } finally {
      await close();
    }
    expect(await listener.catchUp()).toBe(false);
  });

  it('lets a read ride a catch-up: the catch-ups asked before it starts share its one round trip', async () => {
    const { listener, start, close } = createDatabaseListener({ connectionString: database.url }, Fastify().log);
    const { sent, spy } = recordQueries();
    try {
      const heard: string[] = [];
      await listener.subscribe('test_ride', (payload) => heard.push(payload));
      await start();
      for (let round = 0; round < 5; round++) {
        await notify(['test_ride', `round ${round}`]);
        sent.length = 0;
        const read = new Promise<unknown>((resolve, reject) =>
          listener.ride((connection) => connection!.query(`select ${round} as round`).then((answer) => resolve(answer.rows), reject)),
        );
        const [rows, caughtUp] = await Promise.all([read, listener.catchUp(), listener.catchUp()]);
        expect(rows).toEqual([{ round }]);
        expect(caughtUp).toBe(true);
        expect(heard.at(-1)).toBe(`round ${round}`);
        // The read alone, no empty query beside it.
        expect(sent).toEqual([`select ${round} as round`]);
      }
      // A read that fails fails the catch-up it rode: nothing may be trusted from that round trip.
      listener.ride((connection) => connection!.query('select no_such_column').then(() => undefined));
      expect(await listener.catchUp()).toBe(false);
      expect(await listener.catchUp()).toBe(true);
    } finally {
      spy.mockRestore();
      await close();
    }
    // With the connection down, a read is given none, and the catch-up fails.
    const given = new Promise((resolve) => listener.ride(async (connection) => resolve(connection)));
    expect(await Promise.all([given, listener.catchUp()])).toEqual([null, false]);
  });

  it('has the catch-ups asked in the next two turns of the event loop share one round trip', async () => {
    const { listener, start, close } = createDatabaseListener({ connectionString: database.url }, Fastify().log);
    const { sent, spy } = recordQueries();
    const nextTurn = <T>(then: () => Promise<T>) => new Promise<T>((resolve) => setImmediate(() => resolve(then())));
    try {
      await start();
      for (let round = 0; round < 5; round++) {
        sent.length = 0;
        const caughtUp = await Promise.all([listener.catchUp(), nextTurn(() => listener.catchUp()), nextTurn(() => nextTurn(() => listener.catchUp()))]);
        expect(caughtUp).toEqual([true, true, true]);
        expect(sent).toEqual(['']);
      }
    } finally {
      spy.mockRestore();
      await close();
    }
  });

  it('sends one query at a time on its connection, however subscribing and catching up overlap', async () => {
    // pg queues a query sent while another runs, but warns that it will stop doing so.
    const inFlight = new Map<pg.Client, number>();
    let mostAtOnce = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const result = (query as (...args: unknown[]) => Promise<unknown> | undefined).apply(this, args);
      // The listener's queries answer promises; the pool's take callbacks.
      if (!result) return result;
      inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
      mostAtOnce = Math.max(mostAtOnce, inFlight.get(this)!);
      const done = () => void inFlight.set(this, inFlight.get(this)! - 1);
      result.then(done, done);
      return result;
    } as typeof query);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const { listener, start, close } = createDatabaseListener({ connectionString: database.url }, Fastify().log);
    try {
      await start();
      const heard: string[] = [];
      for (let round = 0; round < 5; round++) {
        const [stopHearing, , stopOther, stopThird] = await Promise.all([
          listener.subscribe(`test_overlap_${round}`, (payload) => heard.push(payload)),
          listener.catchUp(),
          listener.subscribe(`test_other_${round}`, () => undefined),
          listener.subscribe(`test_third_${round}`, () => undefined),
          listener.catchUp(),
        ]);
        await notify([`test_overlap_${round}`, `round ${round}`]);
        const [caughtUp] = await Promise.all([listener.catchUp(), stopOther(), stopThird(), listener.catchUp()]);
        expect(caughtUp).toBe(true);
        expect(heard.at(-1)).toBe(`round ${round}`);
        await stopHearing();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(mostAtOnce).toBe(1);
      expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      spy.mockRestore();
      await close();
    }
  });
});
