/**
 * Measures the listing calls on a catalogue of realistic size: loads BENCH_PRODUCTS products
 * (default 20,000) across categories and sellers into a fresh database, serves the real app on a
 * local port, and fires BENCH_REQUESTS requests per call at BENCH_CONCURRENCY at a time.
 * Prints latency percentiles and throughput; asserts nothing.
 *
 *   npm run bench:api                         (embedded PostgreSQL in a temporary directory)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:api
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { configFrom } from '../src/config.ts';
import { createDatabase, withDatabaseName } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createCategory, createUser } from '../src/db/factories.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function prepareDatabase() {
  const database = `furniture_bench_${process.pid}`;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let cleanup = async () => undefined as void;
  if (!adminUrl) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-bench-'));
    const embedded = await startEmbeddedPostgres(dir);
    adminUrl = embedded.adminUrl;
    cleanup = async () => {
      await embedded.stop();
      await fs.rm(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = withDatabaseName(adminUrl, database);
  await migrateDatabase(url);
  return {
    url,
    async drop() {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      await cleanup();
    },
  };
}

async function loadCatalogue(db: ReturnType<typeof createDatabase>['db']) {
  const categories = await Promise.all(Array.from({ length: 8 }, () => createCategory(db)));
  const sellers = await Promise.all(Array.from({ length: 50 }, () => createUser(db, { role: 'seller', password: null })));
  const buyer = await createUser(db, { role: 'buyer', password: null });
  // One set-based insert: generate_series spreads products over categories, sellers and time.
  await db.execute(sql`
    insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price,
      resale_price, description, phone, location, product_image, advertisement, in_stock, posted_at)
    select (${sql.raw(`array['${categories.map((c) => c.id).join("','")}']`)}::uuid[])[1 + i % 8],
           (${sql.raw(`array['${sellers.map((s) => s.id).join("','")}']`)}::uuid[])[1 + i % 50],
           'Good', 'Product ' || i, '2 years', 300, 150, 'Solid and clean', '01700000000', 'Dhaka',
           'https://images.example.com/p' || i || '.webp', i % 40 = 0, case when i % 7 = 0 then 'sold' else 'available' end::stock_state,
           now() - make_interval(mins => i)
    from generate_series(1, ${PRODUCTS}) as i`);
  await db.execute(sql`
    insert into bookings (buyer_id, product_id, product_name, product_image, product_price, phone_number, location)
    select ${buyer.id}, id, product_name, product_image, resale_price, '01711111111', 'Gulshan'
    from products where in_stock = 'available' order by posted_at desc limit 500`);
  await db.execute(sql`analyze`);
  return { categoryId: categories[0]!.id, buyer };
}

async function measure(name: string, url: string, headers: Record<string, string>) {
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
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(
    `${name.padEnd(34)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s   p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms   p99 ${at(0.99).padStart(6)} ms${failures ? `   ${failures} failed` : ''}`,
  );
}

const database = await prepareDatabase();
const { db, pool } = createDatabase(database.url, 20);
try {
  console.log(`Loading ${PRODUCTS} products…`);
  const { categoryId, buyer } = await loadCatalogue(db);
  const app = await buildApp({ config: configFrom({ logLevel: 'silent', demoData: false }), db });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const auth = { authorization: `bearer ${await app.accessTokens.issue(buyer.id)}` };
  console.log(`${REQUESTS} requests per call, ${CONCURRENCY} at a time, ${os.cpus().length} cores\n`);
  await measure('GET /api/allCategories', `${address}/api/allCategories`, {});
  await measure('GET /api/advertisement', `${address}/api/advertisement`, {});
  await measure('GET /api/category/:id (50 of 2,500)', `${address}/api/category/${categoryId}`, auth);
  await measure('GET /api/category/:id?page=40', `${address}/api/category/${categoryId}?page=40`, auth);
  await measure('GET /api/booking?email= (50 of 500)', `${address}/api/booking?email=${encodeURIComponent(buyer.email)}`, auth);
  await app.close();
} finally {
  await pool.end();
  await database.drop();
}
