/**
 * Holds the app under a steady mixed load and prints what happened: `npm run soak -- --duration 60
 * --connections 50`. The real app serves the demo catalogue from a fresh embedded PostgreSQL in a
 * temporary directory (or SOAK_DATABASE_URL, a server whose `postgres` database may be used to
 * create one) on a local port; autocannon sends reads (categories, advertisements, searches, a
 * product page, the signed-in account) and writes (sellers listing products, buyers adding to
 * their wish lists). Prints errors, answers by status, latency and throughput, and the app's
 * memory every few seconds; asserts nothing.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { configFrom } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { createUser } from '../src/demo/factories.ts';
import { categories, products } from '../src/db/schema/index.ts';
import { loadDemoData } from '../src/demo/demo-data.ts';
import { startSession } from '../src/users/refresh-tokens.ts';
import { createScratchDatabase } from './scratch-database.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    'sample-every': { type: 'string', default: '5' },
  },
});
const DURATION_SECONDS = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const SAMPLE_SECONDS = Number(args['sample-every']);

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;


const database = await createScratchDatabase('soak', process.env.SOAK_DATABASE_URL);
const { db, pool } = createDatabase(database.url, 10);
try {
  await loadDemoData(db, 'http://localhost:5000');
  const app = await buildApp({ config: configFrom({ logLevel: 'silent', demoData: false }), db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  const productIds = (await db.select({ id: products.id }).from(products)).map((row) => row.id);
  const bearerOf = async (role: 'buyer' | 'seller') => {
    const user = await createUser(db, { role, verified: true });
    const { sessionId } = await startSession(db, user.id);
    return `bearer ${await app.accessTokens.issue({ userId: user.id, sessionId })}`;
  };
  const [buyer, seller] = [await bearerOf('buyer'), await bearerOf('seller')];
  // Access tokens last five minutes; a longer soak signs in again, as the web app refreshes.
  const tokens = { buyer, seller };
  const renew = setInterval(
    () => void Promise.all([bearerOf('buyer'), bearerOf('seller')]).then(([b, s]) => Object.assign(tokens, { buyer: b, seller: s })),
    240_000,
  );

  let listing = 0;
  const json = { 'content-type': 'application/json' };
  const requests: autocannon.Request[] = [
    { method: 'GET', path: '/api/allCategories' },
    { method: 'GET', path: '/api/advertisement' },
    { method: 'GET', path: '/api/products?q=chair' },
    { method: 'GET', path: `/api/products?categoryId=${category!.id}&sort=price-asc` },
    {
      method: 'GET',
      path: '/api/products',
      setupRequest: (request) => ({ ...request, path: `/api/products/${productIds[listing % productIds.length]}` }),
    },
    { method: 'GET', path: '/api/auth/me', setupRequest: (request) => ({ ...request, headers: { authorization: tokens.buyer } }) },
    {
      method: 'POST',
      path: '/api/addProduct',
      setupRequest: (request) => ({
        ...request,
        headers: { ...json, authorization: tokens.seller },
        body: JSON.stringify({
          categoryId: category!.id,
          condition: 'Good',
          productName: `Soak chair ${++listing}`,
          yearsOfUsedProduct: '2 years',
          originalPrice: 300,
          resalePrice: 120.5,
          description: 'Listed during the soak',
          phone: '01700000000',
          location: 'Dhaka',
          productImage: 'https://images.example.com/soak.webp',
        }),
      }),
    },
    {
      method: 'POST',
      path: '/api/addWish',
      setupRequest: (request) => ({
        ...request,
        headers: { ...json, authorization: tokens.buyer },
        body: JSON.stringify({ productId: productIds[listing % productIds.length] }),
      }),
    },
  ];

  console.log(`Soaking ${base} for ${DURATION_SECONDS} s with ${CONNECTIONS} connections (6 reads and 2 writes in each round)`);
  const started = Date.now();
  const samples: string[] = [];
  const sample = () => {
    const memory = process.memoryUsage();
    samples.push(
      `  ${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s  rss ${megabytes(memory.rss).padStart(7)}  heap ${megabytes(memory.heapUsed).padStart(7)}`,
    );
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_SECONDS * 1000);
  const result = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION_SECONDS, requests });
  clearInterval(sampler);
  clearInterval(renew);
  sample();

  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => `${status}: ${count}`)
    .join(', ');
  const [{ written }] = (await db.execute<{ written: number }>(sql`select count(*)::int as written from products where product_name like 'Soak chair %'`))
    .rows as [{ written: number }];
  console.log(`Requests: ${result.requests.total} (${result.requests.average.toFixed(0)}/s on average)`);
  console.log(`Answers by status: ${statuses}`);
  console.log(`Errors: ${result.errors} (timeouts ${result.timeouts}), non-2xx: ${result.non2xx}`);
  console.log(
    `Latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(`Products listed during the soak: ${written}`);
  console.log('Memory of the app process over time:');
  for (const line of samples) console.log(line);
  await app.close();
} finally {
  await pool.end();
  await database.drop();
}
