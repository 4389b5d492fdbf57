import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../../../server/src/app.ts';
import type { Config } from '../../../server/src/config.ts';
import type { Database } from '../../../server/src/db/client.ts';
import { createProduct } from '../../../server/src/demo/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../../server/test/database.ts';
import { testConfig } from '../../../server/test/app.ts';
import { ensureWebBuild } from './web-build.ts';

export interface Marketplace {
  /** Origin the browser opens, e.g. http://127.0.0.1:41234 */
  url: string;
  app: App;
  db: Database;
  config: Config;
}

/**
 * A free port, held by a listening socket until `release()`. Between choosing the port and the
 * app listening on it, a database is created and the app built, seconds in which the system could
 * give the port to an outgoing connection of another test file (a port chosen and let go at once
 * was taken so once, EADDRINUSE); a port something listens on is given to no connection.
 */
async function holdFreePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve, reject) => holder.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { port: (holder.address() as net.AddressInfo).port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/** Settings for the test server; a function receives the server's origin before it is built. */
type Overrides = Partial<Config> | ((url: string) => Partial<Config> | Promise<Partial<Config>>);

/**
 * The real server, listening on a free port with this test file's own fresh database, serving
 * the built web app. Call at the top of a test file; the object is filled in before the tests.
 */
export function setupMarketplace(overrides: Overrides = {}): Marketplace {
  const context = {} as Marketplace;
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    await ensureWebBuild();
    const { port, release } = await holdFreePort();
    try {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-e2e-'));
      database = await createTestDatabase();
      context.url = `http://127.0.0.1:${port}`;
      context.db = database.db;
      const extra = typeof overrides === 'function' ? await overrides(context.url) : overrides;
      context.config = testConfig({ dataDir, publicUrl: context.url, ...extra });
      context.app = await buildApp({ config: context.config, db: context.db });
    } finally {
      await release();
    }
    await context.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await context.app?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return context;
}

/**
 * Thirty pine stools of one seller in one category, $11 to $40, a third of them Fair: more than
 * one page of search results holds, for "Load more" and for facet counts.
 */
export async function createPineStools(market: Marketplace, owner: { categoryId: string; sellerId: string }) {
  for (let index = 1; index <= 30; index++) {
    await createProduct(market.db, owner, {
      productName: `Pine stool ${index}`,
      condition: index % 3 === 0 ? 'Fair' : 'Good',
      resalePrice: `${10 + index}.00`,
      photos: [`${market.url}/demo/chair-1.svg`],
      measurements: { widthCm: 35, depthCm: 35, heightCm: 45 },
    });
  }
}
