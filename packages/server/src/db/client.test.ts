import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createDatabase } from './client.ts';

/** Runs `test` with a database of its own and a handle on it with `connections` connections, and drops both after. */
async function withDatabase(connections: number, test: (handle: ReturnType<typeof createDatabase>, database: TestDatabase) => Promise<void>) {
  const database = await createTestDatabase();
  const handle = createDatabase(database.url, connections);
  try {
    await test(handle, database);
  } finally {
    await handle.pool.end();
    await database.drop();
  }
}

describe('createDatabase', () => {
  it('survives a checked-out connection being dropped by the server between two queries', () =>
    withDatabase(2, async ({ pool }, database) => {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const ended = new Promise((resolve) => client.once('end', resolve));
      // What a database restart looks like to a connection in use: without a listener for the
      // client's error, this would end the process.
      await database.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await ended;
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);
      expect((await pool.query('select 1 as up')).rows).toEqual([{ up: 1 }]);
    }));

  // One connection: a transaction that kept it would leave every later query waiting for it.
  it("gives a transaction's connection back to the pool when its BEGIN fails", () =>
    withDatabase(1, async ({ db, pool }) => {
      // A BEGIN the server refuses, as a connection lost at that moment makes it fail.
      await expect(db.transaction(async () => undefined, { isolationLevel: 'no such level' as 'serializable' })).rejects.toThrow();
      expect(pool.idleCount).toBe(pool.totalCount);
      expect(await db.transaction(async (tx) => (await tx.execute(sql`select 1 as up`)).rows)).toEqual([{ up: 1 }]);
    }));

  it('runs each statement in its own backend, without parallel workers', () =>
    withDatabase(1, async ({ db }) => {
      const { rows } = await db.execute<{ max_parallel_workers_per_gather: string }>(sql`show max_parallel_workers_per_gather`);
      expect(rows).toEqual([{ max_parallel_workers_per_gather: '0' }]);
    }));

  it('compiles no statement just in time', () =>
    withDatabase(1, async ({ db }) => {
      const { rows } = await db.execute<{ jit: string }>(sql`show jit`);
      expect(rows).toEqual([{ jit: 'off' }]);
    }));

  it('starts every sequential scan at the start of its table, where no other scan is', () =>
    withDatabase(1, async ({ db }) => {
      const { rows } = await db.execute<{ synchronize_seqscans: string }>(sql`show synchronize_seqscans`);
      expect(rows).toEqual([{ synchronize_seqscans: 'off' }]);
    }));
});
