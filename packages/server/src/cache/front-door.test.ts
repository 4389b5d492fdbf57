import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { createCategory } from '../db/factories.ts';

const t = setupTestApp();

let app: App | undefined;
let closePool: () => Promise<void> = async () => undefined;
afterAll(async () => {
  await app?.close();
  await closePool();
});

/**
 * An app server over HTTP that counts the requests reaching Fastify's hooks, and whose closing
 * waits, once it has begun, until `finishClosing` is called.
 */
async function closableServer() {
  const { db, pool } = createDatabase(t.database.url, 3);
  closePool = () => pool.end();
  app = await buildApp({ config: t.config, db, jobs: { recurring: false } });
  let reached = 0;
  app.addHook('onRequest', async () => {
    reached++;
  });
  let closing!: () => void;
  const closeStarted = new Promise<void>((resolve) => (closing = resolve));
  let finishClosing!: () => void;
  const held = new Promise<void>((resolve) => (finishClosing = resolve));
  // After the front door's own preClose hook: the app is closing, and the server still takes requests.
  app.addHook('preClose', async () => {
    closing();
    await held;
  });
  const base = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  return { app, base, reachedFastify: () => reached, closeStarted, finishClosing };
}

function get(base: URL, path: string) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    http
      .get({ host: base.hostname, port: base.port, path, agent: false }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body }));
      })
      .on('error', reject);
  });
}

describe('the front door', () => {
  it('leaves a request that arrives while the app closes to Fastify, which turns it away so it is asked of another server', async () => {
    await createCategory(t.db);
    const { app, base, reachedFastify, closeStarted, finishClosing } = await closableServer();

    const first = await get(base, '/api/allCategories');
    expect(first.status).toBe(200);
    const sentAgain = reachedFastify();
    expect(await get(base, '/api/allCategories')).toEqual(first);
    expect(reachedFastify()).toBe(sentAgain);

    const closed = app.close();
    await closeStarted;
    // Fastify answers a closing server's requests before its hooks: the 503 is its answer, not a kept one.
    expect(await get(base, '/api/allCategories')).toMatchObject({ status: 503, connection: 'close' });
    finishClosing();
    await closed;
  });
});
