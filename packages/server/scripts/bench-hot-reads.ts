/**
 * Measures the hot reads against the limit of this machine: starts the marketplace as `npm start`
 * does (demo data, embedded PostgreSQL in a temporary DATA_DIR, LOG_LEVEL=warn), and for each call
 * loads it with autocannon in a process of its own, then loads a bare node:http server, also in a
 * process of its own, that sends the very same bytes. Prints requests per second of both, their
 * ratio, and the app's p99 at 10 and at 50 connections; asserts nothing.
 *
 *   npm run bench:hot-reads            (BENCH_SECONDS=5 per measurement by default)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilAnswering(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode}`);
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

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

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-bench-hot-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const app = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/start.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_DATA: 'true' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitUntilAnswering(`${base}/api/health`, app);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'buyer@demo.furniture', password: 'Buyer1234' }),
  }).then((response) => response.json() as Promise<{ token: string }>);
  const signedIn = { authorization: `Bearer ${login.token}` };
  const categories = (await fetch(`${base}/api/allCategories`).then((response) => response.json())) as Array<{ _id: string }>;
  const advertised = (await fetch(`${base}/api/advertisement`).then((response) => response.json())) as { data: Array<{ _id: string }> };

  const calls: Array<{ name: string; url: string; headers?: Record<string, string> }> = [
    { name: 'GET /api/allCategories', url: '/api/allCategories' },
    { name: 'GET /api/', url: '/api/' },
    { name: 'GET /api/advertisement', url: '/api/advertisement' },
    { name: 'GET /api/products/{id}', url: `/api/products/${advertised.data[0]!._id}` },
    { name: 'GET /api/products?q=sofa', url: '/api/products?q=sofa' },
    { name: 'GET /api/products?categoryId', url: `/api/products?categoryId=${categories[0]!._id}` },
    { name: 'GET /api/category/{id} (signed in)', url: `/api/category/${categories[0]!._id}`, headers: signedIn },
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
} finally {
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
  await fs.rm(dataDir, { recursive: true, force: true });
}
