/**
 * Measures throughput against the limit of this machine. Starts the marketplace as `npm start`
 * does (its own process, its settings' defaults: log level info, a line per request to standard
 * output, here discarded; demo data) on a scratch database (an embedded PostgreSQL
 * in a temporary directory, or one created on BENCH_DATABASE_URL's server), then:
 * - each hot read, with the response cache already holding thousands of other answers (every URL
 *   different for a measurement's time, as a busy server's cache holds other searches and pages),
 *   loaded by autocannon in a process of its own, and a bare node:http server, in a
 *   process of its own too, sending the very same bytes (every header the app sent; the ratio to
 *   a bare server sending the body with only its type is printed too, and a plain Fastify app's
 *   ratio with its logger at level info, sending the same bytes), each warmed up first (BENCH_WARM_UP_SECONDS,
 *   1 by default), in turns (BENCH_ROUNDS, 3 by default) so that what else the machine runs weighs
 *   on both: the median rates, the turns' median ratio (the mean of the middle two for an even count) and the range, the app's worst p99
 *   at 10 connections, and at 50 connections, also in turns, the ratio of the app's rate to the bare server's and the median and
 *   range of the turns' p99, the app's and the bare server's; Home, a product's page and a search, which the server
 *   renders, are asked for as a browser asks, compressed, and the bare server sends the same
 *   compressed bytes;
 * - writes: 50 buyers adding wishes, then bookings, as fast as the app takes them, and a check that
 *   every acknowledged one is in the database; then how many of the bookings' e-mails (sent over
 *   SMTP to a mail server in a process of its own) were still waiting when the load ended, how
 *   long the app took to send them, and the CPU and rate with them;
 * - start: `npm start` on an initialised DATA_DIR (embedded PostgreSQL) and on DATABASE_URL, from
 *   spawn to a healthy /api/health, the node process's CPU time until then, and its resident
 *   memory when healthy, after a warm-up and idle (the PostgreSQL processes are not counted).
 * Asserts nothing.
 *
 *   npm run bench:throughput                    (every section; BENCH_SECONDS=5 per measurement)
 *   npm run bench:throughput -- writes start    (only these sections)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { count, inArray, sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../src/db/client.ts';
import { createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../src/demo/factories.ts';
import { bookings, categories, wishes } from '../src/db/schema/index.ts';
import { emailNotificationTask } from '../src/notifications/notify.ts';
import { startArguments, startEnvironment, waitUntilAnswering } from './app-process.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { median } from './statistics.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Turns of app and bare server per call; the ratio printed is the turns' median. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * Load on each call, app and bare server alike, before its turns, not counted: a freshly started
 * process pays for compiling the code a call runs, and each pooled connection for planning its
 * prepared statements, which a running server pays once.
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 1);
const SECTIONS = ['reads', 'writes', 'start'] as const;

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export { waitUntilAnswering };

/** The marketplace as `npm start` runs it, in a process of its own, on a free port. */
export async function startApp(databaseUrl: string, env: Record<string, string>) {
  const port = await freePort();
  const mailServer = await startMailServer();
  const app = spawnApp({ PORT: String(port), DATABASE_URL: databaseUrl, SMTP_URL: mailServer.url, ...env });
  app.once('exit', mailServer.stop);
  return { base: `http://127.0.0.1:${port}`, app, mailServerPid: mailServer.pid };
}

export interface Result {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

/** CPU time (user + system, in ms) a process has used so far, from /proc; undefined once it is gone. */
async function cpuMs(pid: number): Promise<number | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The fields after the command's closing parenthesis: ppid is the 2nd, utime and stime the 12th and 13th.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields && (Number(fields[11]) + Number(fields[12])) * 10; // 100 ticks a second on Linux
}

/** The embedded PostgreSQL this process started and its backends (none with BENCH_DATABASE_URL). */
async function databasePids(): Promise<number[]> {
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const parents = new Map<number, number>();
  const postmasters: number[] = [];
  for (const pid of pids) {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(pid, parent);
    if (parent === process.pid && stat.includes('(postgres)')) postmasters.push(pid);
  }
  return pids.filter((pid) => postmasters.includes(pid) || postmasters.includes(parents.get(pid)!));
}

/** Starts counting the CPU time these processes use: answers a function that tells how much so far (ms). */
export async function cpuUsed(pids: () => Promise<number[]>): Promise<() => Promise<number>> {
  const before = new Map<number, number | undefined>();
  for (const pid of await pids()) before.set(pid, await cpuMs(pid));
  return async () => {
    let used = 0;
    for (const pid of await pids()) used += ((await cpuMs(pid)) ?? 0) - (before.get(pid) ?? 0);
    return used;
  };
}

/**
 * The CPU time one request cost these processes, in µs, while `run` loaded them: other work on the
 * machine slows a request but hardly changes what it costs, unlike the rates.
 */
async function cpuPerRequest(pids: () => Promise<number[]>, run: () => Promise<Result>) {
  const used = await cpuUsed(pids);
  const result = await run();
  return { result, us: ((await used()) * 1000) / (result.requests * SECONDS) };
}

/**
 * autocannon in its own process, so the load generator never shares an event loop with a server.
 * With `uncached`, every request's URL differs by a parameter the API ignores, so no answer comes
 * from the response cache (decision 21), and it comes from an address of its own (X-Forwarded-For,
 * which an app started with TRUST_PROXY believes) so that per-address limits do not answer it; given
 * a parameter the API reads and values for it, each request also carries the next of them, in
 * turn, where that must change what the API computes. A load that no request finished has p50 and
 * p99 of Infinity: every request took longer than the measurement.
 */
export async function load(
  url: string,
  connections: number,
  headers: Record<string, string>,
  { uncached = false as boolean | { parameter: string; values: string[] }, seconds = SECONDS } = {},
): Promise<Result> {
  const options = { url, connections, duration: seconds, headers };
  const varied = uncached === true ? { values: null } : uncached || null;
  const code = `
    const options = ${JSON.stringify(options)};
    const varied = ${JSON.stringify(varied)};
    let sent = 0;
    const separator = options.url.includes('?') ? '&' : '?';
    const query = (n) => (varied.values ? varied.parameter + '=' + varied.values[n % varied.values.length] + '&' : '') + 'uncached=' + n;
    const address = (n) => '10.' + ((n >> 16) & 255) + '.' + ((n >> 8) & 255) + '.' + (n & 255);
    const setupRequest = (request) => {
      const n = sent++;
      return { ...request, path: request.path + separator + query(n), headers: { ...request.headers, 'x-forwarded-for': address(n) } };
    };
    if (varied) options.requests = [{ setupRequest }];
    require(${JSON.stringify(path.join(root, 'node_modules/autocannon'))})(options).then((result) => process.stdout.write(JSON.stringify(result)));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': the process may end before its output has all been read.
  await new Promise((resolve) => child.once('close', resolve));
  const report = JSON.parse(output);
  const finished = report.requests.total > 0;
  return { requests: report.requests.average, p50: finished ? report.latency.p50 : Infinity, p99: finished ? report.latency.p99 : Infinity, errors: report.errors + report.non2xx };
}

/** Headers node:http writes itself, on the app's answers and the bare server's alike. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What a bare server sends again: the very same answer, every header the app sent, or its body with only its type and encoding. */
export function bareAnswer(sample: RawAnswer, { bodyAlone = false } = {}) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(sample.headers)) {
    if (value === undefined || OWN_HEADERS.has(name)) continue;
    if (!bodyAlone || name === 'content-type' || name === 'content-encoding') headers[name] = value;
  }
  headers['content-length'] = String(sample.body.length);
  return { body: sample.body, headers };
}

/**
 * A bare node:http server in its own process, answering every request with the given body and
 * headers (`bareAnswer`). As `plainFastify`, a Fastify 5 app with nothing but its logger at level
 * info (its request lines to standard output, discarded as the app's are) answering the same
 * bytes from memory: the yardstick for what this app's own hooks, cache and database add (decision 39).
 */
export async function startBareServer({ body, headers }: ReturnType<typeof bareAnswer>, { plainFastify = false } = {}) {
  const bodyFile = path.join(os.tmpdir(), `furniture-bare-${process.pid}-${randomUUID()}.body`);
  await fs.writeFile(bodyFile, body);
  const port = await freePort();
  const read = `const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});`;
  const code = plainFastify
    ? `${read}
    const app = require(${JSON.stringify(createRequire(import.meta.url).resolve('fastify'))})({ logger: { level: 'info' } });
    app.get('/', (request, reply) => reply.headers(${JSON.stringify(headers)}).send(body));
    app.listen({ port: ${port}, host: '127.0.0.1' });`
    : `${read}
    require('node:http').createServer((request, response) => {
      response.writeHead(200, ${JSON.stringify(headers)});
      response.end(body);
    }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilAnswering(url, child);
  return {
    url,
    pid: child.pid!,
    stop: () => {
      child.kill();
      void fs.rm(bodyFile, { force: true });
    },
  };
}

/**
 * A mail server (the smtp-server package) in a process of its own that accepts every message and
 * keeps none: the app's e-mails go out over SMTP, as in production, not into the .eml outbox.
 */
async function startMailServer() {
  const port = await freePort();
  // It ends when this process does (its stdin closes), however this process ends.
  const code = `
    process.stdin.on('end', () => process.exit()).resume();
    const { SMTPServer } = require(${JSON.stringify(createRequire(import.meta.url).resolve('smtp-server'))});
    new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onData(stream, session, done) {
      stream.on('data', () => {});
      stream.on('end', () => done());
    } }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'ignore', 'ignore'] });
  await new Promise<void>((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve();
      });
      socket.on('error', () => (child.exitCode === null ? setTimeout(attempt, 20) : reject(new Error('the mail server exited'))));
    };
    attempt();
  });
  return { url: `smtp://127.0.0.1:${port}`, pid: child.pid!, stop: () => void child.kill() };
}

/** Signs in through the API, as a client does, and answers the authorization header. */
export async function signIn(base: string, email: string, password: string) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  }).then((response) => response.json() as Promise<{ token: string }>);
  return { authorization: `Bearer ${login.token}` };
}

export const WRITERS = 50;

/**
 * 50 connections sending writes as fast as the app answers them. In round r (the 50 writes from
 * 50r on) buyer b writes about product (b × k + r) mod n, where k = n / 50: the 50 writes of a round
 * are about 50 products of 50 sellers when `productIds` holds each seller's k products together,
 * as buyers of a marketplace spread over its sellers; and no buyer names a product twice in n
 * rounds. Answers how many were acknowledged (2xx), the rest, the rate and the p99.
 */
export async function writeLoad(base: string, path: string, buyers: Array<Record<string, string>>, productIds: string[], body: (productId: string) => object) {
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
          const [round, buyer] = [Math.floor(write / buyers.length), write % buyers.length];
          const productId = productIds[(buyer * (productIds.length / buyers.length) + round) % productIds.length]!;
          return { ...request, headers: { ...buyers[buyer], 'content-type': 'application/json' }, body: JSON.stringify(body(productId)) };
        },
      },
    ],
  });
  return { acknowledged: result['2xx'], other: result.non2xx + result.errors, rate: result['2xx'] / SECONDS, p99: result.latency.p99 };
}

/** The app as `npm start` runs it, in a process of its own. */
function spawnApp(env: Record<string, string>) {
  return spawn(process.execPath, startArguments(), {
    cwd: root,
    env: { ...process.env, ...startEnvironment(), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopApp(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The headers a browser's request for a page carries that change the answer. */
const asBrowser = { accept: 'text/html', 'accept-encoding': 'br, gzip' };

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** An answer's status, headers and body as they came over the wire (fetch would decompress it). */
export function rawAnswer(url: string, headers: Record<string, string>) {
  return new Promise<RawAnswer>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** Every hot read against a bare server sending the same bytes. */
async function reads(base: string, app: ChildProcess) {
  // Signed in afresh before each signed-in call: an access token lives minutes, a slow run longer.
  const signedIn = () => signIn(base, 'buyer@demo.furniture', 'Buyer1234');
  const categoryList = (await fetch(`${base}/api/allCategories`).then((response) => response.json())) as Array<{ _id: string }>;
  const advertised = (await fetch(`${base}/api/advertisement`).then((response) => response.json())) as { data: Array<{ _id: string }> };

  const calls: Array<{ name: string; url: string; headers?: () => Promise<Record<string, string>> }> = [
    { name: 'GET /api/allCategories', url: '/api/allCategories' },
    { name: 'GET /api/', url: '/api/' },
    { name: 'GET /api/advertisement', url: '/api/advertisement' },
    { name: 'GET /api/products/{id}', url: `/api/products/${advertised.data[0]!._id}` },
    { name: 'GET /api/products?q=sofa', url: '/api/products?q=sofa' },
    { name: 'GET /api/products?categoryId', url: `/api/products?categoryId=${categoryList[0]!._id}` },
    { name: 'GET /api/category/{id} (signed in)', url: `/api/category/${categoryList[0]!._id}`, headers: signedIn },
    { name: 'GET /api/booking (signed in)', url: '/api/booking?email=buyer@demo.furniture', headers: signedIn },
    { name: 'GET /api/wishes (signed in)', url: '/api/wishes?email=buyer@demo.furniture', headers: signedIn },
    // The pages the server renders, as a browser asks for them: compressed.
    { name: 'GET / (Home, HTML, br)', url: '/', headers: async () => asBrowser },
    { name: 'GET /product/{id} (HTML, br)', url: `/product/${advertised.data[0]!._id}`, headers: async () => asBrowser },
    { name: 'GET /search?q=sofa (HTML, br)', url: '/search?q=sofa', headers: async () => asBrowser },
  ];

  console.log(
    `${SECONDS} s per measurement after ${WARM_UP_SECONDS} s of warm-up, ${ROUNDS} turns of app, bare server and plain Fastify at 10 and then of app and bare server at 50 connections per call, autocannon and each server in processes of their own, ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}\n`,
  );
  // A busy server keeps many answers besides the hot ones (other searches, other pages, crawlers):
  // the hot reads are measured with the response cache holding thousands of others.
  const filling = await load(`${base}/api/allCategories`, 16, {}, { uncached: true });
  console.log(`The response cache first kept ${Math.round(filling.requests * SECONDS).toLocaleString('en-US')} other answers (each URL different for ${SECONDS} s).\n`);
  console.log(
    '| call | app req/s (median) | bare req/s (median) | ratio: median of turns (range) | ratio to the body alone (range) | plain Fastify ratio (range) | CPU µs a request: app + database | CPU µs: bare | CPU µs: plain Fastify | CPU ratio bare/(app+db) | app p99 @10 (worst turn) | ratio @50: median of turns (range) | app p99 @50: median of turns (range) | bare p99 @50: median (range) | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const call of calls) {
    const headers = (await call.headers?.()) ?? {};
    const sample = await rawAnswer(base + call.url, headers);
    if (sample.status !== 200) throw new Error(`${call.name} answered ${sample.status}`);
    // The very same answer, every header included, and (as this bench measured before) its body
    // with only its type and encoding: the security and caching headers are bytes the load
    // generator, on the same two cores, reads too.
    const bare = await startBareServer(bareAnswer(sample));
    const bodyAlone = await startBareServer(bareAnswer(sample, { bodyAlone: true }));
    const plainFastify = await startBareServer(bareAnswer(sample), { plainFastify: true });
    try {
      if (WARM_UP_SECONDS > 0) {
        await load(base + call.url, 10, headers, { seconds: WARM_UP_SECONDS });
        await load(bare.url, 10, {}, { seconds: WARM_UP_SECONDS });
        await load(bodyAlone.url, 10, {}, { seconds: WARM_UP_SECONDS });
        await load(plainFastify.url, 10, {}, { seconds: WARM_UP_SECONDS });
      }
      // App and bare in turns, so a change in what else the machine runs weighs on both alike.
      const rounds: Array<{
        app: Result;
        bare: Result;
        bodyAlone: Result;
        plainFastify: Result;
        appUs: number;
        databaseUs: number;
        bareUs: number;
        plainFastifyUs: number;
        appAtFifty: Result;
        bareAtFifty: Result;
      }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const databaseBefore = await cpuUsed(databasePids);
        const onApp = await cpuPerRequest(async () => [app.pid!], () => load(base + call.url, 10, headers));
        const databaseUs = ((await databaseBefore()) * 1000) / (onApp.result.requests * SECONDS);
        const onBare = await cpuPerRequest(async () => [bare.pid], () => load(bare.url, 10, {}));
        const onBodyAlone = await load(bodyAlone.url, 10, {});
        const onPlainFastify = await cpuPerRequest(async () => [plainFastify.pid], () => load(plainFastify.url, 10, {}));
        // A p99 of one run swings by half from one to the next: each turn measures both at 50 too.
        const appAtFifty = await load(base + call.url, 50, headers);
        const bareAtFifty = await load(bare.url, 50, {});
        rounds.push({
          app: onApp.result,
          bare: onBare.result,
          bodyAlone: onBodyAlone,
          plainFastify: onPlainFastify.result,
          appUs: onApp.us,
          databaseUs,
          bareUs: onBare.us,
          plainFastifyUs: onPlainFastify.us,
          appAtFifty,
          bareAtFifty,
        });
      }
      const sortedRatios = (of: (round: (typeof rounds)[number]) => number) => rounds.map(of).sort((a, b) => a - b);
      const medianAndRange = (sorted: number[]) => `${median(sorted).toFixed(2)} (${sorted[0]!.toFixed(2)}-${sorted.at(-1)!.toFixed(2)})`;
      const ratios = sortedRatios((round) => round.app.requests / round.bare.requests);
      const toBodyAlone = sortedRatios((round) => round.app.requests / round.bodyAlone.requests);
      const plainFastifyRatios = sortedRatios((round) => round.plainFastify.requests / round.bare.requests);
      const ratiosAtFifty = sortedRatios((round) => round.appAtFifty.requests / round.bareAtFifty.requests);
      const medianOf = (field: 'appUs' | 'databaseUs' | 'bareUs' | 'plainFastifyUs') => median(rounds.map((round) => round[field]));
      const [appUs, databaseUs, bareUs, plainFastifyUs] = [medianOf('appUs'), medianOf('databaseUs'), medianOf('bareUs'), medianOf('plainFastifyUs')];
      const p99AtTen = Math.max(...rounds.map((round) => round.app.p99));
      const errors = rounds.reduce((sum, round) => sum + round.app.errors + round.appAtFifty.errors, 0);
      const p99sAtFifty = (pick: 'appAtFifty' | 'bareAtFifty') => {
        const p99s = rounds.map((round) => round[pick].p99).sort((a, b) => a - b);
        return `${median(p99s)} ms (${p99s[0]}-${p99s.at(-1)})`;
      };
      console.log(
        `| ${call.name} | ${Math.round(median(rounds.map((r) => r.app.requests)))} | ${Math.round(median(rounds.map((r) => r.bare.requests)))} | ` +
          `${medianAndRange(ratios)} | ${medianAndRange(toBodyAlone)} | ${medianAndRange(plainFastifyRatios)} | ` +
          `${Math.round(appUs)} + ${Math.round(databaseUs)} | ${Math.round(bareUs)} | ${Math.round(plainFastifyUs)} | ` +
          `${(bareUs / (appUs + databaseUs)).toFixed(2)} | ${p99AtTen} ms | ${medianAndRange(ratiosAtFifty)} | ${p99sAtFifty('appAtFifty')} | ${p99sAtFifty('bareAtFifty')} | ${errors} |`,
      );
    } finally {
      bare.stop();
      bodyAlone.stop();
      plainFastify.stop();
    }
  }
}

/** Resident memory of a process, in MB. */
async function residentMegabytes(pid: number) {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** The fields of /proc/<pid>/stat after the command name: [1] is the parent, [11] to [14] CPU times. */
async function statOf(pid: number | string) {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time (user and system, in clock ticks of 10 ms) a process has used, in ms. */
async function cpuMilliseconds(pid: number) {
  const fields = await statOf(pid);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time, in ms, of the PostgreSQL server behind a database handle (on this machine): its
 * postmaster and every backend, those that ended included.
 */
async function postgresCpuMilliseconds(db: Database) {
  const { rows } = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
  const postmaster = Number((await statOf(rows[0]!.pid))[1]);
  const own = await statOf(postmaster);
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = await statOf(entry).catch(() => undefined);
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/**
 * Writes: 50 buyers, each adding wishes and then bookings, one product after another, through the
 * app at `base` (process `appPid`); prints the rates, the CPU per write, and counts the rows against
 * what was acknowledged. The 400 products belong to 50 sellers, 8 each: a booking holds its
 * seller's live-event lock until it commits (decision 25), so bookings of one seller's pieces
 * queue, and 50 buyers at once all booking one seller (or one piece) is not what a marketplace sees.
 */
export async function measureWrites(base: string, db: Database, appPid: number, mailServerPid: number) {
  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  const productIds: string[] = [];
  for (let sellerNo = 0; sellerNo < WRITERS; sellerNo++) {
    const seller = await createUser(db, { role: 'seller', verified: true, password: null });
    for (let index = 0; index < 400 / WRITERS; index++) {
      productIds.push((await createProduct(db, { categoryId: category!.id, sellerId: seller.id })).id);
    }
  }
  // One after another: the bench's pool has two connections, and each account hashes a password.
  const buyerRows = [];
  for (let index = 0; index < WRITERS; index++) buyerRows.push(await createUser(db, { role: 'buyer' }));
  const buyers: Array<Record<string, string>> = [];
  for (const buyer of buyerRows) buyers.push(await signIn(base, buyer.email, DEFAULT_TEST_PASSWORD));
  const buyerIds = buyerRows.map((buyer) => buyer.id);

  // CPU per acknowledged write, of the app and of PostgreSQL, depends little on what else the
  // machine runs, unlike the rate; the bookings' e-mail jobs, run by the app's worker, count too.
  const measured = async (load: () => Promise<Awaited<ReturnType<typeof writeLoad>>>) => {
    const [appBefore, postgresBefore] = [await cpuMilliseconds(appPid), await postgresCpuMilliseconds(db)];
    const done = await load();
    const appMs = (await cpuMilliseconds(appPid)) - appBefore;
    const postgresMs = (await postgresCpuMilliseconds(db)) - postgresBefore;
    return { ...done, appMs: appMs / done.acknowledged, postgresMs: postgresMs / done.acknowledged };
  };
  const wishesDone = await measured(() => writeLoad(base, '/api/addWish', buyers, productIds, (productId) => ({ productId })));
  const [wishRows] = await db.select({ n: count() }).from(wishes).where(inArray(wishes.buyerId, buyerIds));
  const bookingsDone = await measured(() =>
    writeLoad(base, '/api/addBooking', buyers, productIds, (productId) => ({ productId, phoneNumber: '01712345678', location: 'Dhanmondi' })),
  );
  const [bookingRows] = await db.select({ n: count() }).from(bookings).where(inArray(bookings.buyerId, buyerIds));
  const emails = await measureEmailBacklog(db, appPid, mailServerPid);

  console.log(`\nWrites from ${WRITERS} buyers at once, ${SECONDS} s each\n`);
  console.log(
    '| call | acknowledged/s | p99 | acknowledged | refused or failed | rows in the database (acknowledged + in flight at the end) | app CPU per write | PostgreSQL CPU per write |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, done, rows] of [
    ['POST /api/addWish', wishesDone, wishRows!.n],
    ['POST /api/addBooking', bookingsDone, bookingRows!.n],
  ] as const) {
    console.log(
      `| ${name} | ${Math.round(done.rate)} | ${done.p99} ms | ${done.acknowledged} | ${done.other} | ${rows} | ${done.appMs.toFixed(2)} ms | ${done.postgresMs.toFixed(2)} ms |`,
    );
  }
  // A rate that leaves e-mails behind is not one the app keeps up: counted to the last e-mail sent.
  const withEmails = bookingsDone.acknowledged / (SECONDS + emails.drainSeconds);
  console.log(
    `\nBookings' e-mails still waiting when the load ended: ${emails.waiting}, all sent ${emails.drainSeconds.toFixed(1)} s later` +
      ` (${emails.appMs.toFixed(0)} ms of app CPU, ${emails.postgresMs.toFixed(0)} ms of PostgreSQL's, ${emails.mailServerMs.toFixed(0)} ms of the mail server's). With them, a booking cost` +
      ` ${(bookingsDone.appMs + emails.appMs / bookingsDone.acknowledged).toFixed(2)} ms of app CPU and` +
      ` ${(bookingsDone.postgresMs + emails.postgresMs / bookingsDone.acknowledged).toFixed(2)} ms of PostgreSQL's, and ${Math.round(withEmails)} bookings a second were made and e-mailed.`,
  );
}

/** Waits until the bookings' e-mail jobs are all done, and answers how many were waiting, how long it took and the CPU it cost. */
async function measureEmailBacklog(db: Database, appPid: number, mailServerPid: number) {
  const emailJobs = sql`graphile_worker.jobs where task_identifier = ${emailNotificationTask.name}`;
  const [appBefore, postgresBefore, mailServerBefore] = [await cpuMilliseconds(appPid), await postgresCpuMilliseconds(db), await cpuMilliseconds(mailServerPid)];
  const started = performance.now();
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${emailJobs}`);
  const waiting = rows[0]!.n;
  // Asked seldom, and only whether one is left, so that asking costs PostgreSQL little of what is measured.
  const anyLeft = async () => (await db.execute(sql`select 1 from ${emailJobs} limit 1`)).rows.length > 0;
  while (await anyLeft()) {
    if (performance.now() - started > 600_000) throw new Error('the e-mail jobs were not done within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const drainSeconds = (performance.now() - started) / 1000;
  return {
    waiting,
    drainSeconds,
    appMs: (await cpuMilliseconds(appPid)) - appBefore,
    postgresMs: (await postgresCpuMilliseconds(db)) - postgresBefore,
    mailServerMs: (await cpuMilliseconds(mailServerPid)) - mailServerBefore,
  };
}

/**
 * A cold start: from spawn to the first healthy /api/health (asked every 10 ms), with the node
 * process's CPU time and memory then; then its memory after a warm-up of Home, reads and a sign-in,
 * and after 10 s idle.
 */
async function coldStart(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnApp({ DEMO_DATA: 'true', ...env, PORT: String(port), HOST: '127.0.0.1' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode}`);
      const healthy = await fetch(`${base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const healthyMs = performance.now() - started;
    const cpuMs = await cpuMilliseconds(child.pid!);
    const healthyMb = await residentMegabytes(child.pid!);
    const signedIn = await signIn(base, 'buyer@demo.furniture', 'Buyer1234');
    const advertised = (await fetch(`${base}/api/advertisement`).then((response) => response.json())) as { data: Array<{ _id: string }> };
    for (const [url, headers] of [
      // Home as the web server renders it (decision 29): its renderer is part of a warm server.
      ['/', { accept: 'text/html' }],
      ['/api/allCategories', {}],
      ['/api/advertisement', {}],
      [`/api/products/${advertised.data[0]!._id}`, {}],
      ['/api/products?q=sofa', {}],
      ['/api/booking?email=buyer@demo.furniture', signedIn],
    ] as const) {
      await load(base + url, 10, headers);
    }
    const warmMb = await residentMegabytes(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idleMb = await residentMegabytes(child.pid!);
    return { healthyMs, cpuMs, healthyMb, warmMb, idleMb };
  } finally {
    await stopApp(child);
  }
}

const START_RUNS = 3;

/** Cold starts on an initialised DATA_DIR (the embedded PostgreSQL starts too) and on DATABASE_URL. */
async function starts(databaseUrl: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-bench-start-'));
  try {
    // The first start creates the cluster and the demo data; the measured ones find them.
    const port = await freePort();
    const initialise = spawnApp({ DEMO_DATA: 'true', DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1' });
    await waitUntilAnswering(`http://127.0.0.1:${port}/api/health`, initialise);
    await stopApp(initialise);

    console.log(`\nCold starts (node RSS only; the PostgreSQL processes are not counted), warm-up ${SECONDS} s of Home and of each of five reads\n`);
    console.log('| database | to healthy | node CPU until then | RSS healthy | RSS after warm-up | RSS after 10 s idle |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, env] of [
      ['embedded, DATA_DIR initialised', { DATA_DIR: dataDir, DATABASE_URL: '' }],
      ['DATABASE_URL', { DATABASE_URL: databaseUrl }],
    ] as const) {
      for (let run = 0; run < START_RUNS; run++) {
        const figures = await coldStart(env);
        console.log(
          `| ${name} | ${(figures.healthyMs / 1000).toFixed(2)} s | ${(figures.cpuMs / 1000).toFixed(2)} s | ${figures.healthyMb.toFixed(0)} MB | ${figures.warmMb.toFixed(0)} MB | ${figures.idleMb.toFixed(0)} MB |`,
        );
      }
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// Run as a script; bench-api.ts imports the functions above.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

async function main() {
  const chosen = process.argv.slice(2);
  for (const name of chosen) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`Sections are ${SECTIONS.join(', ')}; got ${name}`);
  const runs = (section: (typeof SECTIONS)[number]) => chosen.length === 0 || chosen.includes(section);
  const database = await createScratchDatabase('throughput', process.env.BENCH_DATABASE_URL);
  const { db, pool } = createDatabase(database.url, 2);
  console.log(`${os.cpus().length} cores, load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} at the start`);
  try {
    if (runs('reads') || runs('writes')) {
      const { base, app, mailServerPid } = await startApp(database.url, { DEMO_DATA: 'true' });
      try {
        await waitUntilAnswering(`${base}/api/health`, app);
        if (runs('reads')) await reads(base, app);
        if (runs('writes')) await measureWrites(base, db, app.pid!, mailServerPid);
      } finally {
        await stopApp(app);
      }
    }
    if (runs('start')) await starts(database.url);
  } finally {
    console.log(`\nload average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} at the end`);
    await pool.end();
    await database.drop();
  }
}
