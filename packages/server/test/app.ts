import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { configFrom, type Config } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { startSession } from '../src/users/refresh-tokens.ts';

export interface TestContext {
  app: App;
  db: Database;
  database: TestDatabase;
  config: Config;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return configFrom({ logLevel: 'silent', demoData: false, publicUrl: 'http://localhost:5000', ...overrides });
}

/**
 * The apps of `setupTestApp` and `setupSecondApp` log at `npm start`'s level (info), so that every
 * request takes the logging path it takes in production, to nowhere. `config` stays silent for the
 * apps a test builds from it itself.
 */
const loggingAsStarted = (config: Config) => ({ config: { ...config, logLevel: 'info' as const }, logStream: { write: () => undefined } });

/**
 * Boots the real app in-process on this file's own fresh database. Call at the top of a test file;
 * the returned object is filled in before the first test runs.
 */
export function setupTestApp(overrides: Partial<Config> = {}, { webDir }: { webDir?: string } = {}): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    context.database = await createTestDatabase();
    context.db = context.database.db;
    context.config = testConfig(overrides);
    // Recurring jobs are off: a tick must not run in the middle of a test that drives the same work
    // by hand. Tests of recurring work build an app of their own.
    context.app = await buildApp({
      ...loggingAsStarted(context.config),
      db: context.db,
      jobs: { recurring: false },
      ...(webDir ? { webDir } : {}),
    });
    await context.app.ready();
  });
  afterAll(async () => {
    await context.app?.close();
    await context.database?.drop();
  });
  return context;
}

/**
 * A second app server on the test app's database, with its own pool, listener and caches, for
 * tests of what one server keeps while another writes. Call at the top of a test file, after
 * setupTestApp; the returned object's `app` is set before the first test runs.
 */
export function setupSecondApp(t: TestContext, { webDir }: { webDir?: string } = {}): { app: App } {
  const second = {} as { app: App };
  let closePool: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const { db, pool } = createDatabase(t.database.url, 3);
    closePool = () => pool.end();
    second.app = await buildApp({ ...loggingAsStarted(t.config), db, jobs: { recurring: false }, ...(webDir ? { webDir } : {}) });
    await second.app.ready();
  });
  afterAll(async () => {
    await second.app?.close();
    await closePool();
  });
  return second;
}

/**
 * The authorization header of a signed-in user, in a session of its own, signed in with a second
 * step unless `secondStep: false` (admin calls need one; the factories give admins an app).
 */
export async function bearer(app: App, userId: string, { secondStep = true } = {}): Promise<{ authorization: string }> {
  const { sessionId } = await startSession(app.db, userId, undefined, { secondStep });
  return { authorization: `bearer ${await app.accessTokens.issue({ userId, sessionId })}` };
}
