import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { poolOf } from './client.ts';
import { announceAfterCommit } from './announcements.ts';

let database: TestDatabase;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query('LISTEN test_announcements');
  await listener.query('LISTEN test_other_announcements');
});
afterAll(async () => {
  await listener?.end();
  await database?.drop();
});

/** What the listener has heard of everything committed so far: PostgreSQL sends it before answering. */
async function heardSoFar() {
  await listener.query('select 1');
  return [...heard];
}

describe('announceAfterCommit', () => {
  it('announces what a transaction and its savepoints asked for once it has committed, each payload once', async () => {
    await database.db.transaction(async (tx) => {
      await announceAfterCommit(tx, { channel: 'test_announcements', payloads: ['a'] });
      await tx.transaction(async (savepoint) => announceAfterCommit(savepoint, { channel: 'test_announcements', payloads: ['a', 'b'] }));
      expect(await heardSoFar()).toEqual([]);
    });
    expect(await heardSoFar()).toEqual(['a', 'b']);
  });

  it('announces nothing for a transaction that rolls back', async () => {
    const before = await heardSoFar();
    const failing = database.db.transaction(async (tx) => {
      await announceAfterCommit(tx, { channel: 'test_announcements', payloads: ['c'] });
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect(await heardSoFar()).toEqual(before);
  });

  it('announces at once when given the database rather than a transaction', async () => {
    await announceAfterCommit(database.db, { channel: 'test_announcements', payloads: ['d'] });
    expect((await heardSoFar()).at(-1)).toBe('d');
  });

  it('sends announcements on several channels in one statement', async () => {
    const pool = poolOf(database.db);
    const query = pool.query;
    let statements = 0;
    pool.query = ((...args: Parameters<typeof query>) => {
      statements += 1;
      return query.apply(pool, args);
    }) as typeof query;
    try {
      await announceAfterCommit(
        database.db,
        { channel: 'test_announcements', payloads: ['e'] },
        { channel: 'test_other_announcements', payloads: ['f', 'g'] },
      );
    } finally {
      pool.query = query;
    }
    expect(statements).toBe(1);
    expect((await heardSoFar()).slice(-3)).toEqual(['e', 'f', 'g']);
  });
});
