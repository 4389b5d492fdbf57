/**
 * The one place for the API's speed figures (decision 27). For each catalogue size given with
 * `--products` (default 10,000; give two to compare them), it seeds a database with the catalogue
 * seed (or, with `--keep`, reuses the one a previous run kept), starts the marketplace as
 * `npm start` does in a process of its own, and loads it with autocannon from another process:
 * - every call against a bare node:http server sending the very same bytes (every header too;
 *   the ratio to one sending the body with only its type is printed besides), app and bare runs
 *   alternated in one sitting so the machine's drift cancels: req/s, p50/p99 and the ratio; cached
 *   routes also with the response cache bypassed (every URL different), which is what the
 *   database costs;
 * - keyset pages read one after another, uncompressed, the first pages against the last (the
 *   second of two passes);
 * - the plan of every shape of search (EXPLAIN ANALYZE), flagging any sequential scan of products;
 * - writes per second (wishes and bookings from 50 buyers at once);
 * - with two sizes, typical searches at each as people ask them (their answers cached by the
 *   response cache) while a listing changes five times a second, each change making every cached
 *   search stale: p99 against issue 9's 50 ms and the larger size's against the smaller's; and
 *   search, category page and deep page at each, alternated, and whether the
 *   larger stays within 1.5× of the smaller's latency: with the response cache bypassed (a search
 *   asked again, whose facet counts and words are cached), and as a new search every request (a
 *   minimum price below every price, different each time, so its facet counts are not cached; its
 *   words, the same each time, are).
 * - with `--near`, only searches near a point as the location control asks them (decisions 47 and
 *   53): words, a filter and a 10 km circle in a city by relevance and nearest first, and the
 *   circle alone nearest first, p99 at BENCH_CONNECTIONS with the response cache in use and
 *   bypassed, and what their page statements cost and which indexes they read.
 * Asserts nothing.
 *
 *   npm run bench:api -- --products 10000 --products 1000000 --keep
 *   npm run bench:api -- --products 10000 --products 1000000 --keep --near
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (else an embedded PostgreSQL)
 *   BENCH_SECONDS=5 (per measurement), BENCH_CONNECTIONS=16, --plans (print whole plans),
 *   --scale (only the comparison of sizes), --keep-prefix (kept databases are named
 *   <prefix>_catalogue_<size>, default furniture: a migrated copy under another name)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, SESSION_OPTIONS, type Database } from '../src/db/client.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../src/demo/factories.ts';
import { categories, products } from '../src/db/schema/index.ts';
import { seedCatalogue } from '../src/demo/catalogue-seed.ts';
import { planSearch, searchShapes } from '../src/search/plans.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { median } from './statistics.ts';
import { bareAnswer, cpuUsed, load, measureWrites, rawAnswer, SECONDS, type Result, signIn, startApp, startBareServer, waitUntilAnswering } from './bench-throughput.ts';

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', multiple: true, default: ['10000'] },
    keep: { type: 'boolean', default: false },
    'keep-prefix': { type: 'string', default: 'furniture' },
    plans: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    'pages': { type: 'string', default: '200' },
    near: { type: 'boolean', default: false },
  },
});
const sizes = args.products.map(Number);
// The smallest holds the deep page (the 40th of 24) among its available listings.
if (sizes.some((size) => !Number.isInteger(size) || size < 2_000 || size > 10_000_000)) {
  console.error('--products must be whole numbers from 2000 to 10000000');
  process.exit(1);
}
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/**
 * The settings the app runs with besides `npm start`'s: no demo data (the seed is the catalogue),
 * and the bench's own address trusted to name the caller, so each request measured bypassing the
 * response cache comes from an address of its own and the per-address search limit never answers it.
 */
const APP_SETTINGS = { DEMO_DATA: 'false', TRUST_PROXY: '127.0.0.1' };
const PAGES_READ = Number(args['pages']);
/** A deep page: what someone reaches after scrolling a long while. */
const DEEP_PAGE = 40;
/** The largest catalogue's latency may be at most this many times the smallest's. */
const SCALE_LIMIT = 1.5;
/** Issue 9's latency for a typical search at 16 requests in flight. */
const TYPICAL_P99_MS = 50;
/**
 * autocannon records latencies in whole milliseconds: two p99s this close are the same as far as
 * it can tell, and their ratio (1 ms against 2, say) says nothing of the catalogue's size.
 */
const LATENCY_RESOLUTION_MS = 1;
/**
 * How often a listing changes while typical searches are measured: five times a second, more than
 * a marketplace of a million listings sees (each lasting weeks: a new one every few seconds, and
 * the edits, bookings and sales of the others), and each change makes every cached search stale.
 */
const WRITE_EVERY_MS = 200;

interface Call {
  name: string;
  url: string;
  /** Measured as the catalogue's buyer, signed in afresh (access tokens are short-lived). */
  signedIn?: boolean;
  /** The route keeps answers in the response cache: measured bypassing it too. */
  cached: boolean;
}

interface Catalogue {
  size: number;
  /** The catalogue database's connection string. */
  url: string;
  base: string;
  /** The app server's process id, for the CPU it spends. */
  appPid: number;
  /** The process id of the mail server the app sends its e-mails to. */
  mailServerPid: number;
  db: Database;
  calls: Call[];
  /** Minimum prices below every price of the catalogue: each makes a search new and finds the same. */
  belowEveryPrice: string[];
  /** The authorization header of the catalogue's buyer, signed in now. */
  signIn(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

const json = <T>(response: Response) => {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
  return response.json() as Promise<T>;
};

/** Follows nextCursor `pages - 1` times from `url` and answers the URL of that page. */
async function pageUrl(base: string, url: string, pages: number) {
  let cursor: string | null = null;
  for (let page = 1; page < pages; page++) {
    const body: { nextCursor: string | null } = await json(await fetch(`${base}${url}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    if (!body.nextCursor) throw new Error(`${url} ends before page ${pages}`);
    cursor = body.nextCursor;
  }
  return `${url}&cursor=${encodeURIComponent(cursor!)}`;
}

/** A seeded (or kept) catalogue of `size` products served by the app in its own process, and the calls to measure. */
async function openCatalogue(size: number): Promise<Catalogue> {
  const database = await createScratchDatabase(`catalogue_${size}`, process.env.BENCH_DATABASE_URL, { keep: args.keep, prefix: args['keep-prefix'] });
  const { db, pool } = createDatabase(database.url, 2);
  if (database.created) {
    const started = performance.now();
    await seedCatalogue(database.url, { products: size, publicUrl: 'http://localhost:5000', log: (line) => console.log(`  ${line}`) });
    console.log(`Seeded ${size.toLocaleString('en-US')} products in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } else {
    const [{ count }] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from products`)).rows as [{ count: number }];
    if (count < size) throw new Error(`The kept database ${database.url} holds ${count} products, not ${size}: drop it and run again`);
    console.log(`Reusing ${database.url} (${count.toLocaleString('en-US')} products)`);
  }
  const { base, app, mailServerPid } = await startApp(database.url, APP_SETTINGS);
  // Stopped with this process whatever ends it, a failure before the catalogue is ready included.
  process.once('exit', () => app.kill('SIGTERM'));
  await waitUntilAnswering(`${base}/api/health`, app);

  // A buyer with a few wishes and bookings, signed in through the API.
  const buyer = await createUser(db, { role: 'buyer' });
  const signInBuyer = () => signIn(base, buyer.email, DEFAULT_TEST_PASSWORD);
  const signedIn = await signInBuyer();
  const [category] = await db.select({ id: categories.id }).from(categories).where(eq(categories.categoryName, 'Dressers'));
  const available = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.categoryId, category!.id), eq(products.inStock, 'available')))
    .limit(6);
  for (const { id } of available.slice(1)) {
    const write = { method: 'POST', headers: { ...signedIn, 'content-type': 'application/json' } };
    await json(await fetch(`${base}/api/addWish`, { ...write, body: JSON.stringify({ productId: id }) }));
    await json(await fetch(`${base}/api/addBooking`, { ...write, body: JSON.stringify({ productId: id, phoneNumber: '01712345678', location: 'Dhanmondi' }) }));
  }
  const [{ cheapest }] = (await db.execute<{ cheapest: number }>(sql`select floor(min(resale_price))::int as cheapest from products`)).rows as [{ cheapest: number }];
  const belowEveryPrice = Array.from({ length: Math.min(cheapest * 100, 1_000) }, (_, cents) => (cents / 100).toFixed(2));
  const c = category!.id;
  const calls: Call[] = [
    { name: 'GET /api/allCategories', url: '/api/allCategories', cached: true },
    { name: 'GET /api/', url: '/api/', cached: true },
    { name: 'GET /api/advertisement', url: '/api/advertisement', cached: true },
    { name: 'category first page', url: `/api/products?categoryId=${c}`, cached: true },
    { name: 'product page', url: `/api/products/${available[0]!.id}`, cached: true },
    { name: 'search: walnut dresser', url: '/api/products?q=walnut%20dresser', cached: true },
    { name: 'search: sofaa (typo)', url: '/api/products?q=sofaa', cached: true },
    { name: 'search: oak, Good|Fair, ≤ $300', url: '/api/products?q=oak&condition=Good&condition=Fair&maxPrice=300', cached: true },
    { name: 'search: walnut dresser in Dhanmondi', url: '/api/products?q=walnut%20dresser&location=Dhanmondi', cached: true },
    // A town search with a full page at every size (the one above finds 2 listings at 10,000 listings, so its answer is smaller there).
    { name: 'search: chair in Dhanmondi', url: '/api/products?q=chair&location=Dhanmondi', cached: true },
    { name: `deep page (${DEEP_PAGE}th, newest)`, url: await pageUrl(base, '/api/products?limit=24', DEEP_PAGE), cached: true },
    { name: 'GET /api/category/{id} (signed in)', url: `/api/category/${c}`, signedIn: true, cached: true },
    { name: 'GET /api/booking (signed in)', url: `/api/booking?email=${encodeURIComponent(buyer.email)}`, signedIn: true, cached: false },
    { name: 'GET /api/wishes (signed in)', url: `/api/wishes?email=${encodeURIComponent(buyer.email)}`, signedIn: true, cached: false },
  ];
  return {
    size,
    url: database.url,
    base,
    appPid: app.pid!,
    mailServerPid,
    db,
    calls,
    belowEveryPrice,
    signIn: signInBuyer,
    async stop() {
      app.kill('SIGTERM');
      await new Promise((resolve) => app.once('exit', resolve));
      await pool.end();
      await database.drop();
    },
  };
}

const ms = (value: number) => (value === Infinity ? `none in ${SECONDS} s` : `${value.toFixed(1)} ms`);
const mean = <T>(results: T[], pick: (result: T) => number) => results.reduce((sum, result) => sum + pick(result), 0) / results.length;

/** Each call: app and bare servers (the same answer, and its body alone) alternated twice, then the app bypassing its cache. */
async function measureCalls(catalogue: Catalogue) {
  console.log(`\n| call | app req/s | bare req/s | ratio | ratio to the body alone | app p50 | app p99 | uncached req/s | uncached p50 | uncached p99 | errors |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const call of catalogue.calls) {
    const headers = call.signedIn ? await catalogue.signIn() : {};
    const sample = await rawAnswer(catalogue.base + call.url, headers);
    if (sample.status !== 200) throw new Error(`${call.name} answered ${sample.status}`);
    const bare = await startBareServer(bareAnswer(sample));
    const bodyAlone = await startBareServer(bareAnswer(sample, { bodyAlone: true }));
    const app: Result[] = [];
    const bareRuns: Result[] = [];
    const bodyAloneRuns: Result[] = [];
    try {
      for (let round = 0; round < 2; round++) {
        app.push(await load(catalogue.base + call.url, CONNECTIONS, headers));
        bareRuns.push(await load(bare.url, CONNECTIONS, {}));
        bodyAloneRuns.push(await load(bodyAlone.url, CONNECTIONS, {}));
      }
    } finally {
      bare.stop();
      bodyAlone.stop();
    }
    const uncached = call.cached ? await load(catalogue.base + call.url, CONNECTIONS, headers, { uncached: true }) : undefined;
    const appRate = mean(app, (result) => result.requests);
    const bareRate = mean(bareRuns, (result) => result.requests);
    const errors = app.reduce((sum, result) => sum + result.errors, uncached?.errors ?? 0);
    console.log(
      `| ${call.name} | ${Math.round(appRate)} | ${Math.round(bareRate)} | ${(appRate / bareRate).toFixed(2)} | ${(appRate / mean(bodyAloneRuns, (result) => result.requests)).toFixed(2)} | ` +
        `${ms(mean(app, (r) => r.p50))} | ${ms(mean(app, (r) => r.p99))} | ` +
        (uncached ? `${Math.round(uncached.requests)} | ${ms(uncached.p50)} | ${ms(uncached.p99)}` : '– | – | –') +
        ` | ${errors} |`,
    );
  }
}

/**
 * Follows nextCursor page after page, one request at a time, and compares the first pages with the
 * last. The pages are read twice and the second pass is measured: the calls before have read the
 * first pages already (the deep page's run to its 40th), so a single pass compared pages
 * PostgreSQL had in its buffers with pages it had not, not the cost of a page. Each pass's URLs
 * carry a parameter the API ignores, so neither is answered by the response cache. Pages are asked
 * for uncompressed: compressed, the client's decoding took most of a page's time, and the pass
 * measured that.
 */
async function readPages(catalogue: Catalogue, name: string, url: string) {
  let latencies: number[] = [];
  for (const pass of ['warm-up', 'measured']) {
    latencies = [];
    let cursor: string | null = null;
    do {
      const started = performance.now();
      const page = `${catalogue.base}${url}&pass=${pass}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const body: { nextCursor: string | null } = await json(await fetch(page, { headers: { 'accept-encoding': 'identity' } }));
      latencies.push(performance.now() - started);
      cursor = body.nextCursor;
    } while (cursor && latencies.length < PAGES_READ);
  }
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  const first = median(latencies.slice(0, tenth));
  const last = median(latencies.slice(-tenth));
  console.log(`| ${name} | ${latencies.length} | ${ms(first)} | ${ms(last)} | ${(last / first).toFixed(2)} |`);
}

/** The indexes a plan reads. */
const indexesIn = (plan: string) => [...new Set([...plan.matchAll(/(?:Index|Index Only|Bitmap Index) Scan (?:Backward )?(?:using|on) (\w+)/g)].map((match) => match[1]!))];

/** The plan of every search shape at this size; sequential scans of products are flagged. */
async function printPlans(catalogue: Catalogue) {
  // Planned as the app's own connections plan.
  const client = new pg.Client({ connectionString: catalogue.url, options: SESSION_OPTIONS });
  await client.connect();
  try {
    const [category] = await catalogue.db.select({ id: categories.id }).from(categories).where(eq(categories.categoryName, 'Dressers'));
    console.log('\n| search | statement | execution | indexes used | sequential scan of products |');
    console.log('|---|---|---|---|---|');
    for (const shape of searchShapes(category!.id)) {
      for (const { statement, plan, scansProducts } of await planSearch(client, shape)) {
        const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
        const indexes = indexesIn(plan);
        // A page's statement reads the listings' own columns first; the words' and the place's read only the vocabulary, places and counts.
        const what = statement.startsWith('select "products"."id"') ? 'page' : /search_terms|search_places/.test(statement) && !/from "products"/.test(statement) ? 'words or place' : 'facets';
        console.log(`| ${shape.name} | ${what} | ${execution} ms | ${indexes.join(', ')} | ${scansProducts ? '**YES**' : 'no'} |`);
        if (args.plans) console.log(`\n\`\`\`\n${statement}\n${plan}\n\`\`\`\n`);
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * A call bypassing the response cache; as a `newSearch`, also with a minimum price below every
 * price, different each time, so its facet counts are new too (a page past the first has none).
 */
async function load16(catalogue: Catalogue, call: Call, newSearch: boolean) {
  const headers = call.signedIn ? await catalogue.signIn() : {};
  return withCpu(catalogue, () =>
    load(catalogue.base + call.url, CONNECTIONS, headers, {
      uncached: newSearch && !call.url.includes('cursor=') ? { parameter: 'minPrice', values: catalogue.belowEveryPrice } : true,
    }),
  );
}

/** A load's result with the CPU time per request of the app and of its database connections: what load hardly changes. */
async function withCpu(catalogue: Catalogue, run: () => Promise<Result>) {
  const backends = async () =>
    (await catalogue.db.execute<{ pid: number }>(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)).rows.map((row) => row.pid);
  const [app, database] = [await cpuUsed(async () => [catalogue.appPid]), await cpuUsed(backends)];
  const result = await run();
  const served = result.requests * SECONDS;
  return { ...result, appUs: ((await app()) * 1000) / served, databaseUs: ((await database()) * 1000) / served };
}

const cpu = (runs: { appUs: number; databaseUs: number }[]) => `${Math.round(mean(runs, (r) => r.appUs))} / ${Math.round(mean(runs, (r) => r.databaseUs))}`;

/**
 * A typical search, asked by many people as it is (its answer cached by the response cache), while a
 * listing's price changes every WRITE_EVERY_MS through the database, as a seller's edit would: each
 * change makes the cached answer stale, and the next request computes it again.
 */
async function loadWhileWriting(catalogue: Catalogue, call: Call) {
  const changed = (await catalogue.db.execute<{ id: string }>(sql`select id from products where in_stock = 'available' limit 100`)).rows.map((row) => row.id);
  let changes = 0;
  const writing = setInterval(() => {
    const id = changed[changes++ % changed.length]!;
    void catalogue.db.execute(sql`update products set resale_price = resale_price + 1 where id = ${id}`);
  }, WRITE_EVERY_MS);
  try {
    return await withCpu(catalogue, () => load(catalogue.base + call.url, CONNECTIONS, {}));
  } finally {
    clearInterval(writing);
  }
}

const SEARCHES = ['search: walnut dresser', 'search: sofaa (typo)', 'search: oak, Good|Fair, ≤ $300', 'search: walnut dresser in Dhanmondi', 'search: chair in Dhanmondi'];

/** How many listings a call's answer holds: a page of 2 costs less to send than one of 24, whatever the catalogue's size. */
async function listingsOf(catalogue: Catalogue, call: Call) {
  const body = await json<{ data?: unknown[] }>(await fetch(catalogue.base + call.url));
  return body.data?.length ?? 0;
}

/**
 * Each call at each size, the sizes alternated twice: the listings each answers, p50 and p99, the
 * larger's p99 against the smaller's (SCALE_LIMIT, or no further apart than autocannon can tell)
 * and, when given, against `p99Target`, and the CPU a request costs.
 */
async function compareSizes(
  small: Catalogue,
  large: Catalogue,
  names: string[],
  measure: (catalogue: Catalogue, call: Call) => ReturnType<typeof withCpu>,
  p99Target?: number,
) {
  const target = p99Target === undefined ? '' : ` p99 under ${p99Target} ms |`;
  console.log(
    `\n| call | listings @${small.size} / @${large.size} | p50 @${small.size} | p50 @${large.size} | p99 @${small.size} | p99 @${large.size} | p99 ratio | within ${SCALE_LIMIT}× |${target} app / database CPU µs a request @${small.size} | @${large.size} |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|${target ? '---|' : ''}---|---|`);
  for (const name of names) {
    const call = (catalogue: Catalogue) => catalogue.calls.find((candidate) => candidate.name === name)!;
    const runs = new Map<Catalogue, Awaited<ReturnType<typeof measure>>[]>([
      [small, []],
      [large, []],
    ]);
    for (let round = 0; round < 2; round++) {
      for (const catalogue of [small, large]) runs.get(catalogue)!.push(await measure(catalogue, call(catalogue)));
    }
    const [s, l] = [runs.get(small)!, runs.get(large)!];
    const [smallP99, largeP99] = [mean(s, (r) => r.p99), mean(l, (r) => r.p99)];
    const ratio = largeP99 / smallP99;
    const within = ratio <= SCALE_LIMIT ? 'yes' : largeP99 - smallP99 <= LATENCY_RESOLUTION_MS ? `yes (${LATENCY_RESOLUTION_MS} ms apart at most)` : '**no**';
    const worstP99 = Math.max(...[...s, ...l].map((r) => r.p99));
    const againstTarget = p99Target === undefined ? '' : ` ${worstP99 < p99Target ? 'yes' : '**no**'} (worst run ${ms(worstP99)}) |`;
    const listings = `${await listingsOf(small, call(small))} / ${await listingsOf(large, call(large))}`;
    console.log(
      `| ${name} | ${listings} | ${ms(mean(s, (r) => r.p50))} | ${ms(mean(l, (r) => r.p50))} | ${ms(smallP99)} | ${ms(largeP99)} | ${ratio.toFixed(2)} | ` +
        `${within} |${againstTarget} ${cpu(s)} | ${cpu(l)} |`,
    );
  }
}

/** Dhanmondi, Dhaka: a city neighbourhood the catalogue seed lists pieces in, and towns around it. */
const DHANMONDI = { lat: 23.7465, lon: 90.376 };
const NEAR_SEARCH = { q: 'chair', condition: 'Good', radiusKm: 10 } as const;

/**
 * A 10 km search in a city with words and a filter, as the location control asks it, by relevance
 * and nearest first, and nearest first with neither ("what is near me"): p99 with the response
 * cache in use (people asking the same) and bypassed, and what the statements of its page cost and read.
 */
async function measureNear(catalogue: Catalogue) {
  const searches = [
    { q: NEAR_SEARCH.q, condition: NEAR_SEARCH.condition, sort: 'relevance' },
    { q: NEAR_SEARCH.q, condition: NEAR_SEARCH.condition, sort: 'distance' },
    { sort: 'distance' },
  ] as const;
  for (const search of searches) {
    const { sort } = search;
    const words = 'q' in search ? `q=${search.q}&condition=${search.condition}&` : '';
    const url = `/api/products?${words}near=${DHANMONDI.lat},${DHANMONDI.lon}&radiusKm=${NEAR_SEARCH.radiusKm}&sort=${sort}`;
    const call: Call = { name: `search: ${words ? 'chair, Good, ' : ''}within 10 km of Dhanmondi, by ${sort}`, url, cached: true };
    const cached = await withCpu(catalogue, () => load(catalogue.base + url, CONNECTIONS, {}));
    const uncached = await load16(catalogue, call, false);
    const client = new pg.Client({ connectionString: catalogue.url, options: SESSION_OPTIONS });
    await client.connect();
    let execution = 0;
    const indexes = new Set<string>();
    let scansProducts = false;
    try {
      const query = { ...('q' in search ? { q: search.q, condition: [search.condition] } : {}), near: DHANMONDI, radiusKm: NEAR_SEARCH.radiusKm, sort };
      for (const { statement, plan, scansProducts: scans } of await planSearch(client, { name: call.name, query })) {
        if (!statement.startsWith('select "products"."id"')) continue;
        execution += Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
        for (const index of indexesIn(plan)) indexes.add(index);
        scansProducts ||= scans;
        if (args.plans) console.log(`\n\`\`\`\n${statement}\n${plan}\n\`\`\`\n`);
      }
    } finally {
      await client.end();
    }
    console.log(
      `| ${catalogue.size.toLocaleString('en-US')} | ${words ? 'chair, Good, ' : ''}by ${sort} | ${await listingsOf(catalogue, call)} | ${ms(cached.p50)} | ${ms(cached.p99)} | ${ms(uncached.p50)} | ${ms(uncached.p99)} | ` +
        `${cached.errors + uncached.errors} | ${cpu([uncached])} | ${execution.toFixed(1)} ms | ${[...indexes].join(', ')} | ${scansProducts ? '**YES**' : 'no'} |`,
    );
  }
}

const catalogues: Catalogue[] = [];
try {
  for (const size of sizes) {
    console.log(`\n## ${size.toLocaleString('en-US')} products`);
    const catalogue = await openCatalogue(size);
    catalogues.push(catalogue);
  }
  console.log(`\nSettings besides npm start's: ${Object.entries(APP_SETTINGS).map(([name, value]) => `${name}=${value}`).join(' ')}`);
  console.log(`\n${SECONDS} s per measurement, ${CONNECTIONS} connections, ${os.cpus().length} cores, load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  if (args.near) {
    console.log(`\n## A ${NEAR_SEARCH.radiusKm} km search in a city with words and a filter, ${CONNECTIONS} connections`);
    console.log('\n| products | search | listings | cached p50 | cached p99 | uncached p50 | uncached p99 | errors | app / database CPU µs an uncached request | page statements (EXPLAIN ANALYZE) | indexes used | sequential scan of products |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const catalogue of catalogues) await measureNear(catalogue);
  }
  for (const catalogue of args.scale || args.near ? [] : catalogues) {
    console.log(`\n## ${catalogue.size.toLocaleString('en-US')} products: calls`);
    await measureCalls(catalogue);
    console.log(`\n## ${catalogue.size.toLocaleString('en-US')} products: keyset pages read one request at a time, up to ${PAGES_READ} pages of 24`);
    console.log('\n| search | pages | first 10% p50 | last 10% p50 | last / first |');
    console.log('|---|---|---|---|---|');
    await readPages(catalogue, 'newest', '/api/products?limit=24');
    await readPages(catalogue, 'price-asc', '/api/products?sort=price-asc&limit=24');
    await readPages(catalogue, 'q=oak chair, relevance', '/api/products?q=oak%20chair&limit=24');
    // Past the listings named by both words (about the 33rd page at a million): those mentioning them elsewhere.
    await readPages(catalogue, 'q=walnut dresser, relevance', '/api/products?q=walnut%20dresser&limit=24');
    await readPages(catalogue, 'q=walnut dresser, newest', '/api/products?q=walnut%20dresser&sort=newest&limit=24');
    await readPages(catalogue, 'q=walnut dresser in Dhanmondi, relevance', '/api/products?q=walnut%20dresser&location=Dhanmondi&limit=24');
    // A word too common in the town to collect and sort (at a million): read newest first through the word's lists.
    await readPages(catalogue, 'q=oak in Dhanmondi, relevance', '/api/products?q=oak&location=Dhanmondi&limit=24');
    console.log(`\n## ${catalogue.size.toLocaleString('en-US')} products: query plans (EXPLAIN ANALYZE)`);
    await printPlans(catalogue);
  }
  if (catalogues.length >= 2 && !args.near) {
    const [small, large] = [catalogues[0]!, catalogues.at(-1)!];
    const scale = `${small.size.toLocaleString('en-US')} against ${large.size.toLocaleString('en-US')} products, alternated`;
    console.log(`\n## Scale: ${scale}, a typical search as people ask it (the response cache in use) while a listing changes every ${WRITE_EVERY_MS} ms`);
    await compareSizes(small, large, SEARCHES, loadWhileWriting, TYPICAL_P99_MS);
    console.log(`\n## Scale: ${scale}, response cache bypassed (facet counts and words cached)`);
    const others = [...SEARCHES, 'category first page', `deep page (${DEEP_PAGE}th, newest)`];
    await compareSizes(small, large, others, (catalogue, call) => load16(catalogue, call, false));
    console.log(`\n## Scale: ${scale}, a new search every request (facet counts not cached)`);
    await compareSizes(small, large, others, (catalogue, call) => load16(catalogue, call, true));
  }
  if (!args.scale && !args.near) {
    const writesTo = catalogues.at(-1)!;
    console.log(`\n## Writes (${writesTo.size.toLocaleString('en-US')} products)`);
    await measureWrites(writesTo.base, writesTo.db, writesTo.appPid, writesTo.mailServerPid);
  }
  console.log(`\nLoad average at the end: ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
} finally {
  for (const catalogue of catalogues) await catalogue.stop();
}
