/**
 * Measures throughput against the limit of this machine. Starts the marketplace as `npm start`
 * does (its own process, demo data, LOG_LEVEL=warn) on a scratch database (an embedded PostgreSQL
 * in a temporary directory, or one created on BENCH_DATABASE_URL's server), then:
 * - each hot read, loaded by autocannon in a process of its own, and a bare node:http server, in a
 *   process of its own too, sending the very same bytes: both rates, their ratio, and the app's p99
 *   at 10 and 50 connections;
 * - writes: 50 buyers adding wishes, then bookings, as fast as the app takes them, and a check that
 *   every acknowledged one is in the database.
 * Asserts nothing.
 *
 *   npm run bench:throughput            (BENCH_SECONDS=5 per measurement by default)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { count, inArray } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { freePort } from '../src/db/embedded.ts';
import { createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../src/db/factories.ts';
import { bookings, categories, wishes } from '../src/db/schema/index.ts';
import { waitUntilAnswering } from './app-process.ts';
import { createScratchDatabase } from './scratch-database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

interface Result {
  requests: number;
  p99: number;
  errors: number;
}

/** autocannon in its own process, so the load generator never shares an event loop with a server. */
async function load(url: string, connections: number, headers: Record<string, string>): Promise<Result> {
  const args = ['-c', String(connections), '-d', String(SECONDS), '--json'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const child = spawn(path.join(root, 'node_modules/.bin/autocannon'), [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  await new Promise((resolve) => child.once('exit', resolve));
  const report = JSON.parse(output);
  return { requests: report.requests.average, p99: report.latency.p99, errors: report.errors + report.non2xx };
}

/** A bare node:http server in its own process, answering every request with the given bytes. */
async function startBareServer(body: Buffer, contentType: string) {
  const bodyFile = path.join(os.tmpdir(), `furniture-bare-${process.pid}.body`);
  await fs.writeFile(bodyFile, body);
  const port = await freePort();
  const code = `
    const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});
    require('node:http').createServer((request, response) => {
      response.writeHead(200, { 'content-type': ${JSON.stringify(contentType)}, 'content-length': body.length });
      response.end(body);
    }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilAnswering(url, child);
  return { url, stop: () => child.kill() };
}

/** Signs in through the API, as a client does, and answers the authorization header. */
async function signIn(base: string, email: string, password: string) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  }).then((response) => response.json() as Promise<{ token: string }>);
  return { authorization: `Bearer ${login.token}` };
}

const WRITERS = 50;

/**
 * 50 connections sending writes as fast as the app answers them; the n-th write is buyer n mod 50's
 * about another product each round, so no write repeats another. Answers how many were
 * acknowledged (2xx), the rest, the rate and the p99.
 */
async function writeLoad(base: string, path: string, buyers: Array<Record<string, string>>, productIds: string[], body: (productId: string) => object) {
  let sent = 0;
  const result = await autocannon({
    url: base,
    connections: WRITERS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (request) => {
          const write = sent++;
          const productId = productIds[Math.floor(write / buyers.length) % productIds.length]!;
          return { ...request, headers: { ...buyers[write % buyers.length], 'content-type': 'application/json' }, body: JSON.stringify(body(productId)) };
        },
      },
    ],
  });
  return { acknowledged: result['2xx'], other: result.non2xx + result.errors, rate: result['2xx'] / SECONDS, p99: result.latency.p99 };
}

const database = await createScratchDatabase('throughput', process.env.BENCH_DATABASE_URL);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const app = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/start.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATABASE_URL: database.url, LOG_LEVEL: 'warn', DEMO_DATA: 'true' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const { db, pool } = createDatabase(database.url, 2);

try {
  await waitUntilAnswering(`${base}/api/health`, app);
  const signedIn = await signIn(base, 'buyer@demo.furniture', 'Buyer1234');
  const categoryList = (await fetch(`${base}/api/allCategories`).then((response) => response.json())) as Array<{ _id: string }>;
  const advertised = (await fetch(`${base}/api/advertisement`).then((response) => response.json())) as { data: Array<{ _id: string }> };

  const calls: Array<{ name: string; url: string; headers?: Record<string, string> }> = [
    { name: 'GET /api/allCategories', url: '/api/allCategories' },
    { name: 'GET /api/', url: '/api/' },
    { name: 'GET /api/advertisement', url: '/api/advertisement' },
    { name: 'GET /api/products/{id}', url: `/api/products/${advertised.data[0]!._id}` },
    { name: 'GET /api/products?q=sofa', url: '/api/products?q=sofa' },
    { name: 'GET /api/products?categoryId', url: `/api/products?categoryId=${categoryList[0]!._id}` },
    { name: 'GET /api/category/{id} (signed in)', url: `/api/category/${categoryList[0]!._id}`, headers: signedIn },
    { name: 'GET /api/booking (signed in)', url: '/api/booking?email=buyer@demo.furniture', headers: signedIn },
    { name: 'GET /api/wishes (signed in)', url: '/api/wishes?email=buyer@demo.furniture', headers: signedIn },
  ];

  console.log(`${SECONDS} s per measurement, autocannon and each server in processes of their own, ${os.cpus().length} cores\n`);
  console.log('| call | app req/s | bare req/s | ratio | app p99 @10 | app p99 @50 | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const call of calls) {
    const headers = call.headers ?? {};
    const sample = await fetch(base + call.url, { headers });
    if (!sample.ok) throw new Error(`${call.name} answered ${sample.status}`);
    const body = Buffer.from(await sample.arrayBuffer());
    const bare = await startBareServer(body, sample.headers.get('content-type') ?? 'application/json');
    try {
      const atTen = await load(base + call.url, 10, headers);
      const bareAtTen = await load(bare.url, 10, {});
      const atFifty = await load(base + call.url, 50, headers);
      const ratio = atTen.requests / bareAtTen.requests;
      console.log(
        `| ${call.name} | ${Math.round(atTen.requests)} | ${Math.round(bareAtTen.requests)} | ${ratio.toFixed(2)} | ${atTen.p99} ms | ${atFifty.p99} ms | ${atTen.errors + atFifty.errors} |`,
      );
    } finally {
      bare.stop();
    }
  }

  // Writes: 50 buyers, each adding wishes and then bookings, one product after another.
  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  const seller = await createUser(db, { role: 'seller', verified: true });
  const productIds: string[] = [];
  for (let index = 0; index < 400; index++) {
    productIds.push((await createProduct(db, { categoryId: category!.id, sellerId: seller.id })).id);
  }
  const buyerRows = await Promise.all(Array.from({ length: WRITERS }, () => createUser(db, { role: 'buyer' })));
  const buyers = [];
  for (const buyer of buyerRows) buyers.push(await signIn(base, buyer.email, DEFAULT_TEST_PASSWORD));
  const buyerIds = buyerRows.map((buyer) => buyer.id);

  console.log(`\nWrites from ${WRITERS} buyers at once, ${SECONDS} s each\n`);
  console.log('| call | acknowledged/s | p99 | acknowledged | refused or failed | rows in the database (acknowledged + in flight at the end) |');
  console.log('|---|---|---|---|---|---|');
  const wishesDone = await writeLoad(base, '/api/addWish', buyers, productIds, (productId) => ({ productId }));
  const [wishRows] = await db.select({ n: count() }).from(wishes).where(inArray(wishes.buyerId, buyerIds));
  const bookingsDone = await writeLoad(base, '/api/addBooking', buyers, productIds, (productId) => ({
    productId,
    phoneNumber: '01712345678',
    location: 'Dhanmondi',
  }));
  const [bookingRows] = await db.select({ n: count() }).from(bookings).where(inArray(bookings.buyerId, buyerIds));
  for (const [name, done, rows] of [
    ['POST /api/addWish', wishesDone, wishRows!.n],
    ['POST /api/addBooking', bookingsDone, bookingRows!.n],
  ] as const) {
    console.log(`| ${name} | ${Math.round(done.rate)} | ${done.p99} ms | ${done.acknowledged} | ${done.other} | ${rows} |`);
  }
} finally {
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
  await pool.end();
  await database.drop();
}
