import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabaseName } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

/**
 * A migrated database of its own for a benchmark or a soak, dropped by `drop()`: created on the
 * server at `adminUrl` (whose `postgres` database may be used to create one), or else on an
 * embedded PostgreSQL started in a temporary directory and removed afterwards.
 *
 * With `keep` (and an `adminUrl`), the database is named by `purpose` alone (after `prefix`,
 * `furniture` unless given), reused when it exists (`created` is then false) and left in place by
 * `drop()`, for the next run to reuse.
 */
export async function createScratchDatabase(purpose: string, adminUrl: string | undefined, { keep = false, prefix = 'furniture' } = {}) {
  if (keep && !adminUrl) throw new Error('Keeping a database needs BENCH_DATABASE_URL (a PostgreSQL server to keep it on)');
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error('A database prefix is lower-case letters, digits and underscores');
  const database = keep ? `${prefix}_${purpose}` : `${prefix}_${purpose}_${process.pid}`;
  let cleanup = async () => undefined as void;
  if (!adminUrl) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `furniture-${purpose}-`));
    const embedded = await startEmbeddedPostgres(dir);
    adminUrl = embedded.adminUrl;
    cleanup = async () => {
      await embedded.stop();
      await fs.rm(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
  const created = rowCount === 0;
  if (created) await admin.query(`create database ${database}`);
  const url = withDatabaseName(adminUrl, database);
  await migrateDatabase(url);
  return {
    url,
    created,
    async drop() {
      if (!keep) await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      await cleanup();
    },
  };
}
