import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { serverDir } from '../server-dir.ts';
import { openApiPath } from './openapi.ts';

const t = setupTestApp();
const redoclyCli = path.join(serverDir, '../../node_modules/@redocly/cli/bin/cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

describe('GET /api/openapi.json', () => {
  it('documents every API route with its method, generated from the schemas that validate requests', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');

    const undocumented = t.app.apiRoutes
      .filter((route) => route.method !== 'HEAD' && route.url !== '/api/openapi.json')
      .filter((route) => !document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.url}`);
    expect(undocumented).toEqual([]);
  });

  it("passes Redocly's recommended rules with no error, every operation named, so a client generator can use it", async () => {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    await fs.writeFile(file, (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
    // The linter exits non-zero when it finds an error; its report is on standard output either way.
    const { stdout } = await promisify(execFile)(process.execPath, [redoclyCli, 'lint', file, '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout: string }) => error);
    await fs.rm(path.dirname(file), { recursive: true });
    const { problems } = JSON.parse(stdout) as { problems: LintProblem[] };
    const refused = problems
      .filter((problem) => problem.severity === 'error' || problem.ruleId.startsWith('operation-operationId'))
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(refused).toEqual([]);
  });

  it('declares security from the access each route declares, and documents the prefix root without its slash', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.paths['/api/allCategories'].get.security).toEqual([]);
    expect(document.paths['/api/events'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/api'].get.operationId).toBe('getRoot');
    expect(document.paths['/api/bookings/{id}/accept'].post.operationId).toBe('postBookingsByIdAccept');
    // The specification's spelling still answers.
    expect((await t.app.inject({ method: 'GET', url: '/api/' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api' })).statusCode).toBe(200);
  });

  it('shows every object the API returns carrying _id', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    // Two `id`s name no object of ours: the simulated card network answers Stripe.js's shape, and a
    // live event's id is the stream's resume point (the server-sent events `id:` field).
    const foreignShapes = [
      'POST /api/payments/simulated/confirm/200/content/application/json/schema/properties/paymentIntent',
      'GET /api/events/200/content/application/json/schema/properties/data/properties/events/items',
    ];
    const withoutUnderscoreId: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${where}/${index}`));
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties && 'id' in properties && !('_id' in properties)) withoutUnderscoreId.push(where);
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { responses?: unknown }>>)) {
      for (const [method, operation] of Object.entries(operations)) visit(operation.responses, `${method.toUpperCase()} ${path}`);
    }
    expect(withoutUnderscoreId.filter((where) => !foreignShapes.includes(where))).toEqual([]);
  });

  it('describes request bodies from the shared schemas, e.g. the sign-up fields and roles', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const signup = document.paths['/api/auth/signup'].post.requestBody.content['application/json'].schema;
    expect(signup.required).toEqual(expect.arrayContaining(['name', 'email', 'password', 'image', 'userRole']));
    expect(signup.properties.userRole.enum).toEqual(['buyer', 'seller']);
  });

  it('serves interactive docs at /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
