import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import { createDatabase } from './client.ts';

describe('createDatabase', () => {
  it('survives a checked-out connection being dropped by the server between two queries', async () => {
    const database = await createTestDatabase();
    const { pool } = createDatabase(database.url, 2);
    try {
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
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
