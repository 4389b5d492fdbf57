import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, withDatabaseName, type Database } from '../src/db/client.ts';

export interface TestDatabase {
  url: string;
  db: Database;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database of this test file's own, cloned from the suite's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('databaseAdminUrl');
  const template = inject('templateDatabase');
  const runId = template.replace('furniture_template_', '');
  const name = `furniture_test_${runId}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(adminUrl, name);
  const { db, pool } = createDatabase(url, 5);
  return {
    url,
    db,
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`).finally(() => client.end());
    },
  };
}

/** Whether a statement on this database is waiting for a lock: the second party of a race has arrived. */
export async function waitingOnALock(db: Database): Promise<boolean> {
  const result = await db.execute<{ waiting: number }>(
    sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return result.rows[0]!.waiting > 0;
}
