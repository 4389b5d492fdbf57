import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { installJobQueue } from '../jobs/job-queue-schema.ts';
import { serverDir } from '../server-dir.ts';
import { loadPlaces } from './places-gazetteer.ts';

export const migrationsFolder = path.join(serverDir, 'src/db/migrations');

/** Any 64-bit number unique to this application, so app servers starting together migrate one at a time. */
const MIGRATION_LOCK_ID = 4_207_312_881;

export async function migrateDatabase(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder });
    await loadPlaces(client);
    await installJobQueue(connectionString);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}
