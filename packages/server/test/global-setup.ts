import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { withDatabaseName } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the maintenance database of the server the tests use. */
    databaseAdminUrl: string;
    /** A migrated database that each test file clones for itself. */
    templateDatabase: string;
  }
}

/**
 * Starts the PostgreSQL the suite runs on (an embedded one, or TEST_DATABASE_URL's server) and
 * builds one migrated template database; each test file then clones it, which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let tempDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-test-db-'));
    embedded = await startEmbeddedPostgres(tempDir);
    adminUrl = embedded.adminUrl;
  }
  const templateDatabase = `furniture_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${templateDatabase}`);
  await admin.query(`create database ${templateDatabase}`);
  await migrateDatabase(withDatabaseName(adminUrl, templateDatabase));

  project.provide('databaseAdminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    // Databases a crashed test file left behind go with the template.
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`furniture_test_${process.pid}_%`, templateDatabase],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
    await embedded?.stop();
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
  };
}
