import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, withDatabaseName, type Database } from '../src/db/client.ts';
import { products } from '../src/db/schema/index.ts';

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

/**
 * Sends `write` while another transaction sells the product, and lets the sale commit only once
 * the write waits for the product's row: a write racing a sale, decided by the row lock.
 */
export async function racingASale<T>(db: Database, productId: string, write: () => Promise<T>): Promise<T> {
  let commitSale!: () => void;
  let saleHeld!: () => void;
  const held = new Promise<void>((resolve) => (saleHeld = resolve));
  const sale = db.transaction(async (tx) => {
    await tx.update(products).set({ state: 'sold', inStock: 'sold' }).where(eq(products.id, productId));
    saleHeld();
    await new Promise<void>((resolve) => (commitSale = resolve));
  });
  await held;
  const written = write();
  while (!(await waitingOnALock(db))) await new Promise((resolve) => setImmediate(resolve));
  commitSale();
  await sale;
  return written;
}
