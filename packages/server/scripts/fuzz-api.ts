/**
 * Long fuzzing runs of the API: `npm run fuzz -- --runs 100000 [--seed N]`. The same hostile
 * requests and rules as the suite's fuzz test (test/fuzz.ts), on a fresh embedded PostgreSQL in a
 * temporary directory; prints a summary (answers by status, by operation, every distinct problem
 * with one request that shows it) and exits non-zero when a rule was broken.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { configFrom } from '../src/config.ts';
import { createDatabase, withDatabaseName } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createFuzzChecker, createFuzzWorld, describeRequest, fuzzTargets, hostileRequest } from '../test/fuzz.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string', default: String(Date.now() % 2 ** 31) } },
});
const runs = Number(args.runs);
const seed = Number(args.seed);

const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-fuzz-'));
const cluster = await startEmbeddedPostgres(directory);
try {
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create database furniture');
  await admin.end();
  const url = withDatabaseName(cluster.adminUrl, 'furniture');
  await migrateDatabase(url);
  const { db, pool } = createDatabase(url, 5);
  const app = await buildApp({ config: configFrom({ logLevel: 'silent', demoData: false }), db, jobs: { recurring: false } });
  await app.ready();

  const targets = fuzzTargets(app.swagger() as Parameters<typeof fuzzTargets>[0]);
  const requests = hostileRequest(targets, await createFuzzWorld(app));
  const check = await createFuzzChecker(app);
  const byStatus = new Map<number, number>();
  const byOperation = new Map<string, number>();
  const problems = new Map<string, string>();
  const started = performance.now();

  await fc.check(
    fc.asyncProperty(requests, async (request) => {
      const { status, problem } = await check(request);
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const operation = `${request.target.method} ${request.target.path}`;
      byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
      if (problem) {
        const kind = `${operation}: ${problem.replace(/: .*/s, '')}`;
        if (!problems.has(kind)) problems.set(kind, `${problem}\n    ${describeRequest(request)}`);
      }
      return true;
    }),
    { numRuns: runs, seed },
  );
  const seconds = (performance.now() - started) / 1000;

  console.log(`Fuzzed ${runs} requests over ${targets.length} operations in ${seconds.toFixed(1)} s (seed ${seed}, ${(runs / seconds).toFixed(0)}/s)`);
  console.log('Answers by status:');
  for (const [status, count] of [...byStatus].sort(([a], [b]) => a - b)) console.log(`  ${status}  ${count}`);
  console.log('Requests by operation:');
  for (const [operation, count] of [...byOperation].sort()) console.log(`  ${String(count).padStart(6)}  ${operation}`);
  console.log(problems.size === 0 ? 'No rule broken.' : `${problems.size} distinct problems:`);
  for (const [kind, example] of problems) console.log(`- ${kind}\n    ${example}`);
  await app.close();
  await pool.end();
  process.exitCode = problems.size === 0 ? 0 : 1;
} finally {
  await cluster.stop();
  await fs.rm(directory, { recursive: true, force: true });
}
