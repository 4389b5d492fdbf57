import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect } from 'vitest';
import { setupTestApp } from './app.ts';
import { createFuzzChecker, createFuzzWorld, describeRequest, fuzzTargets, hostileRequest, type FuzzRequest } from './fuzz.ts';

/**
 * Property-based fuzzing of every operation of the OpenAPI document, from every kind of caller:
 * no answer is a 5xx, every 4xx says what is wrong, and a refused request changes no table.
 * A fixed seed keeps the run repeatable; `npm run fuzz -- --runs 100000` runs longer.
 */

const t = setupTestApp();
const SEED = 20_261_123;
const RUNS = 2_000;

let requests: fc.Arbitrary<FuzzRequest> = fc.constant(null as unknown as FuzzRequest);
let check: Awaited<ReturnType<typeof createFuzzChecker>>;

beforeAll(async () => {
  const targets = fuzzTargets(t.app.swagger() as Parameters<typeof fuzzTargets>[0]);
  expect(targets.length).toBeGreaterThan(30);
  requests = hostileRequest(targets, await createFuzzWorld(t.app));
  check = await createFuzzChecker(t.app);
});

describe('every operation, hostile input from every kind of caller', () => {
  test.prop([fc.constant(null).chain(() => requests)], { seed: SEED, numRuns: RUNS, endOnFailure: true })(
    'answers no 5xx, says what is wrong in every 4xx, and changes nothing when it refuses',
    async (request) => {
      const { problem } = await check(request);
      expect(problem, describeRequest(request)).toBeNull();
    },
    120_000,
  );
});
