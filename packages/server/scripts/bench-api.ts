/**
 * Measures the public reads on a catalogue of a given size: seeds `--products N` (default 20,000)
 * with the catalogue seed into a fresh database, serves the real app on a local port, and fires
 * BENCH_REQUESTS requests per call at BENCH_CONCURRENCY at a time. Prints latency percentiles and
 * throughput, a deep keyset walk page by page, and the query plan of every query a search or a
 * product page runs; asserts nothing.
 *
 *   npm run bench:api -- --products 1000000   (embedded PostgreSQL in a temporary directory)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:api
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { configFrom } from '../src/config.ts';
import { createUser } from '../src/db/factories.ts';
import * as schema from '../src/db/schema/index.ts';
import { seedCatalogue } from '../src/demo/catalogue-seed.ts';
import { startSession } from '../src/users/refresh-tokens.ts';
import { createScratchDatabase } from './scratch-database.ts';

const { values: args } = parseArgs({
  options: { products: { type: 'string', default: process.env.BENCH_PRODUCTS ?? '20000' }, 'walk-pages': { type: 'string', default: '200' } },
});
const PRODUCTS = Number(args.products);
const WALK_PAGES = Number(args['walk-pages']);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);


/** The statements the app sends while `capturing` is on, to print their plans. */
const captured: { query: string; params: unknown[] }[] = [];
let capturing = false;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(name: string, url: string, headers: Record<string, string> = {}) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!response.ok) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => percentile(latencies, q).toFixed(1).padStart(6);
  console.log(
    `${name.padEnd(44)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s   p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   p99 ${at(0.99)} ms${failures ? `   ${failures} failed` : ''}`,
  );
}

/** Follows nextCursor page after page, one request at a time, and prints how the pages compare. */
async function walk(name: string, url: string) {
  const latencies: number[] = [];
  let cursor: string | null = null;
  let rows = 0;
  do {
    const t0 = performance.now();
    const response = await fetch(cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url);
    const body = (await response.json()) as { data: unknown[]; nextCursor: string | null };
    latencies.push(performance.now() - t0);
    rows += body.data.length;
    cursor = body.nextCursor;
  } while (cursor && latencies.length < WALK_PAGES);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  console.log(
    `${name.padEnd(44)} ${String(latencies.length).padStart(4)} pages, ${rows} rows   first 10%: p50 ${median(latencies.slice(0, tenth)).toFixed(1)} ms   last 10%: p50 ${median(latencies.slice(-tenth)).toFixed(1)} ms   page ${latencies.length}: ${latencies.at(-1)!.toFixed(1)} ms`,
  );
}

/** One request with the app's statements captured, then each statement's plan as PostgreSQL runs it. */
async function explain(client: pg.Client, name: string, url: string) {
  captured.length = 0;
  capturing = true;
  await (await fetch(url)).arrayBuffer();
  capturing = false;
  console.log(`\n=== ${name}`);
  for (const { query, params } of captured) {
    const { rows } = await client.query(`explain (analyze, costs off, timing off, summary off) ${query}`, params);
    const plan = rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n    ');
    const scansProducts = /Seq Scan on products/.test(plan);
    console.log(`--- ${query.replace(/\s+/g, ' ').slice(0, 140)}…${scansProducts ? '   [SEQUENTIAL SCAN OF products]' : ''}\n    ${plan}`);
  }
}

const database = await createScratchDatabase('bench', process.env.BENCH_DATABASE_URL);
const pool = new pg.Pool({ connectionString: database.url, max: 20 });
pool.on('error', () => {
  // Connections still open when the database is dropped at the end are cut; nothing to report.
});
const db = drizzle(pool, {
  schema,
  logger: { logQuery: (query, params) => void (capturing && captured.push({ query, params })) },
});
const explainClient = new pg.Client({ connectionString: database.url });
try {
  console.log(`Seeding ${PRODUCTS.toLocaleString('en-US')} products…`);
  const seeded = performance.now();
  await seedCatalogue(database.url, { products: PRODUCTS, publicUrl: 'http://localhost:5000', log: (line) => console.log(`  ${line}`) });
  console.log(`Seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);

  const buyer = await createUser(db, { role: 'buyer', password: null });
  const [category] = await db.select().from(schema.categories).where(eq(schema.categories.categoryName, 'Dressers'));
  const [product] = await db
    .select({ id: schema.products.id })
    .from(schema.products)
    .where(sql`${schema.products.inStock} = 'available' and ${schema.products.categoryId} = ${category!.id}`)
    .limit(1);

  const app = await buildApp({ config: configFrom({ logLevel: 'silent', demoData: false }), db });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { sessionId } = await startSession(db, buyer.id);
  const auth = { authorization: `bearer ${await app.accessTokens.issue({ userId: buyer.id, sessionId })}` };
  const c = category!.id;
  const searches: [string, string][] = [
    ['search: browse, newest', '/api/products'],
    ['search: q=walnut dresser (typical)', '/api/products?q=walnut%20dresser'],
    ['search: q=sofaa (typo)', '/api/products?q=sofaa'],
    ['search: q=oak, category, Good|Fair, ≤$300', `/api/products?q=oak&categoryId=${c}&condition=Good&condition=Fair&maxPrice=300`],
    ['search: location=Dhanmondi, price-asc', '/api/products?location=Dhanmondi&sort=price-asc'],
    ['search: verified sellers, price-desc', '/api/products?sellerVerified=true&sort=price-desc'],
    ['search: door 80×200, space, price-asc', `/api/products?categoryId=${c}&doorWidth=80&doorHeight=200&spaceWidth=150&spaceDepth=60&spaceHeight=120&sort=price-asc`],
    ['product page', `/api/products/${product!.id}`],
  ];

  console.log(`\n${REQUESTS} requests per call, ${CONCURRENCY} at a time, ${os.cpus().length} cores, ${PRODUCTS.toLocaleString('en-US')} products\n`);
  await measure('GET /api/allCategories', `${address}/api/allCategories`);
  await measure('GET /api/advertisement', `${address}/api/advertisement`);
  await measure('GET /api/category/:id (first 50)', `${address}/api/category/${c}`, auth);
  for (const [name, url] of searches) await measure(name, `${address}${url}`);
  await measure('product page HTML (meta tags)', `${address}/product/${product!.id}`);

  console.log(`\nKeyset walks (one request at a time, up to ${WALK_PAGES} pages of 24)\n`);
  await walk('walk: newest', `${address}/api/products?limit=24`);
  await walk('walk: price-asc', `${address}/api/products?sort=price-asc&limit=24`);
  await walk('walk: q=oak chair, relevance', `${address}/api/products?q=oak%20chair&limit=24`);

  await explainClient.connect();
  console.log('\nQuery plans (EXPLAIN ANALYZE) of every statement each call runs');
  for (const [name, url] of searches) await explain(explainClient, name, `${address}${url}`);
  await app.close();
} finally {
  await explainClient.end().catch(() => undefined);
  await pool.end();
  await database.drop();
}
