import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
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
      await announceAfterCommit(tx, 'test_announcements', ['a']);
      await tx.transaction(async (savepoint) => announceAfterCommit(savepoint, 'test_announcements', ['a', 'b']));
      expect(await heardSoFar()).toEqual([]);
    });
    expect(await heardSoFar()).toEqual(['a', 'b']);
  });

  it('announces nothing for a transaction that rolls back', async () => {
    const before = await heardSoFar();
    const failing = database.db.transaction(async (tx) => {
      await announceAfterCommit(tx, 'test_announcements', ['c']);
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect(await heardSoFar()).toEqual(before);
  });

  it('announces at once when given the database rather than a transaction', async () => {
    await announceAfterCommit(database.db, 'test_announcements', ['d']);
    expect((await heardSoFar()).at(-1)).toBe('d');
  });
});
