import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, testConfig } from '../../test/app.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase, withDatabaseName, type Database } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts';
import { createUser } from '../demo/factories.ts';
import { migrateDatabase } from './migrate.ts';
import { categories } from './schema/index.ts';

/**
 * An embedded PostgreSQL of this file's own, killed with SIGKILL while writes stream in: the app
 * stays up and answers 503 while it is down, the cluster is restarted without anyone's help, and
 * every write that was answered 201 is in the database afterwards. Then stopped and started again
 * from outside, as an external server restarts: the app reconnects by itself.
 */
let directory: string;
let cluster: EmbeddedDatabase;
let db: Database;
let pool: pg.Pool;
let app: App;
const notices: string[] = [];

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-db-failure-'));
  cluster = await startEmbeddedPostgres(directory, { onNotice: (line) => notices.push(line) });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create database furniture');
  await admin.end();
  const url = withDatabaseName(cluster.adminUrl, 'furniture');
  await migrateDatabase(url);
  ({ db, pool } = createDatabase(url, 5));
  app = await buildApp({ config: testConfig(), db, jobs: { recurring: false } });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await pool?.end();
  await cluster?.stop();
  await fs.rm(directory, { recursive: true, force: true });
});

/** Gives the event loop a turn, so the writers and the supervisor's timers run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the database failing under the app', () => {
  it('answers 503 with Retry-After meanwhile, comes back by itself, and keeps every acknowledged write', async () => {
    const admin = await createUser(db, { role: 'admin' });
    const headers = await bearer(app, admin.id);
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    let sequence = 0;
    const write = async () => {
      const categoryName = `Category ${++sequence}`;
      const response = await app.inject({
        method: 'POST',
        url: '/api/addCategory',
        headers,
        payload: { categoryName, description: 'Written while the database may be down', image: 'https://images.example.com/c.webp' },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 201) acknowledged.push(categoryName);
      if (response.statusCode === 503) {
        expect(response.headers['retry-after']).toBe('5');
        expect(response.json().message).toBe('The marketplace cannot reach its database right now. Please try again in a few seconds.');
      }
      return response.statusCode;
    };

    for (let i = 0; i < 10; i++) expect(await write()).toBe(201);

    let writing = true;
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) {
        await write();
        await nextTurn();
      }
    });
    process.kill(cluster.pid()!, 'SIGKILL');

    // Health says degraded until the supervisor has the cluster running again.
    const healthStates = new Set<string>();
    const deadline = Date.now() + 90_000;
    for (;;) {
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      healthStates.add(`${health.statusCode} ${health.json().status}`);
      if (health.statusCode === 200 && healthStates.has('503 degraded')) break;
      expect(Date.now()).toBeLessThan(deadline);
      await nextTurn();
    }
    writing = false;
    await Promise.all(writers);

    for (let i = 0; i < 10; i++) expect(await write()).toBe(201);
    expect(healthStates).toContain('503 degraded');
    expect(statuses).toContain(503);
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(notices.some((line) => line.startsWith('The embedded PostgreSQL stopped (SIGKILL); restarting it'))).toBe(true);
    expect(notices).toContain('The embedded PostgreSQL is running again');

    const stored = await db.select({ name: categories.categoryName }).from(categories).where(inArray(categories.categoryName, acknowledged));
    expect(stored.map((row) => row.name).sort()).toEqual([...acknowledged].sort());
  });

  it('reconnects to a PostgreSQL restarted from outside, as to an external DATABASE_URL, answering 503 while it is down', async () => {
    const admin = await createUser(db, { role: 'admin' });
    const headers = await bearer(app, admin.id);
    const addCategory = (categoryName: string) =>
      app.inject({ method: 'POST', url: '/api/addCategory', headers, payload: { categoryName, description: 'After a restart', image: 'https://images.example.com/c.webp' } });
    expect((await addCategory('Before the restart')).statusCode).toBe(201);

    const port = Number(new URL(cluster.adminUrl).port);
    await cluster.stop();
    const whileDown = await addCategory('While it is down');
    expect(whileDown.statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'degraded', database: 'down' });

    cluster = await startEmbeddedPostgres(directory, { port, onNotice: (line) => notices.push(line) });
    expect((await addCategory('After the restart')).statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok', database: 'up' });
    const names = (await db.select({ name: categories.categoryName }).from(categories)).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['Before the restart', 'After the restart']));
    expect(names).not.toContain('While it is down');
  });
});
