import { randomBytes } from 'node:crypto';
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
