import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, testConfig } from '../../test/app.ts';
import { openEventStream } from '../../test/event-stream.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase, withDatabaseName } from '../db/client.ts';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';
import { createUser } from '../demo/factories.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { publishLiveEvent } from './live-events.ts';

/**
 * A PostgreSQL of this file's own, stopped and started again on the same port while an app server
 * holds a live event stream open: what a database restart or failover looks like to the app.
 */
let directory: string;
let port: number;
let cluster: EmbeddedDatabase;
let url: string;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-restart-'));
  port = await freePort();
  cluster = await startEmbeddedPostgres(directory, { port });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create database furniture');
  await admin.end();
  url = withDatabaseName(cluster.adminUrl, 'furniture');
  await migrateDatabase(url);
});

afterAll(async () => {
  await cluster?.stop();
  await fs.rm(directory, { recursive: true, force: true });
});

describe('a live event stream across a database restart', () => {
  let app: App | undefined;
  afterAll(() => app?.close());

  it('stays open, and events published after the restart arrive, none lost', async () => {
    const { db, pool } = createDatabase(url, 5);
    app = await buildApp({ config: testConfig(), db, jobs: { recurring: false } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const user = await createUser(db);
    const stream = await openEventStream(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/events`, await bearer(app, user.id));
    await stream.next((event) => event.event === 'ready');
    const publish = (n: number) => db.transaction((tx) => publishLiveEvent(tx, { to: user.id, type: 'test.restart', data: { n } }));
    await publish(1);
    await stream.next((event) => event.event === 'test.restart');

    const reconnected = new Promise<void>((resolve) => app!.databaseListener.onReconnect(resolve));
    await cluster.stop();
    cluster = await startEmbeddedPostgres(directory, { port });
    // Published as soon as the database is back, most likely before the listener reconnected (it
    // is then caught up from the stored events), and once it has reconnected (by NOTIFY).
    await publish(2);
    await reconnected;
    await publish(3);

    await stream.next((event) => event.event === 'test.restart' && (event.data as { n: number }).n === 3);
    expect(stream.events.filter((event) => event.event === 'test.restart').map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    stream.close();
    await app.close();
    app = undefined;
    await pool.end();
  });
});
