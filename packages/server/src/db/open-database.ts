import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { createDatabase, withDatabaseName, type Database } from './client.ts';
import { runningClusterUrl, startEmbeddedPostgres, walArchiveDir } from './embedded.ts';
import { migrateDatabase } from './migrate.ts';

export interface OpenDatabase {
  db: Database;
  /** Its connection string, for tools that need a connection of their own. */
  url: string;
  /** Where the data lives, for the start-up line (no password). */
  description: string;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = 'furniture';

/** Where the embedded database and the uploaded images are backed up (decision 36). */
export const backupDirOf = (config: Pick<Config, 'backupDir' | 'dataDir'>) => config.backupDir ?? path.join(config.dataDir, 'backups');

/** The embedded cluster's folder under DATA_DIR: the cluster itself and its credentials. */
export const embeddedDatabaseDir = (dataDir: string) => path.join(dataDir, 'postgres');

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under DATA_DIR, and applies the
 * migrations either way. A command run beside the app (`joinRunning`) uses the embedded
 * PostgreSQL the app runs, as the app migrated it, and leaves it running.
 */
export async function openDatabase(config: Config, log: (line: string) => void, options: { joinRunning?: boolean } = {}): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    await migrateDatabase(config.databaseUrl);
    const { db, pool } = createDatabase(config.databaseUrl);
    const url = new URL(config.databaseUrl);
    return { db, url: config.databaseUrl, description: `PostgreSQL at ${url.host}${url.pathname}`, close: () => pool.end() };
  }

  const directory = embeddedDatabaseDir(config.dataDir);
  const runningUrl = options.joinRunning ? await runningClusterUrl(directory) : undefined;
  if (runningUrl) {
    const url = withDatabaseName(runningUrl, EMBEDDED_DATABASE);
    const { db, pool } = createDatabase(url);
    return { db, url, description: `the running embedded PostgreSQL in ${directory}`, close: () => pool.end() };
  }
  await fs.mkdir(config.dataDir, { recursive: true });
  // As root the cluster runs as the postgres user, which must be able to pass through DATA_DIR.
  if (process.getuid?.() === 0) await fs.chmod(config.dataDir, 0o755);
  log(`Starting the embedded PostgreSQL in ${directory}`);
  const embedded = await startEmbeddedPostgres(directory, { onNotice: log, walArchive: walArchiveDir(backupDirOf(config)) });
  try {
    const admin = new pg.Client({ connectionString: embedded.adminUrl });
    await admin.connect();
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (!rowCount) await admin.query(`create database ${EMBEDDED_DATABASE}`);
    await admin.end();
    const url = withDatabaseName(embedded.adminUrl, EMBEDDED_DATABASE);
    await migrateDatabase(url);
    const { db, pool } = createDatabase(url);
    return {
      db,
      url,
      description: `embedded PostgreSQL in ${directory}`,
      async close() {
        await pool.end();
        await embedded.stop();
      },
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
