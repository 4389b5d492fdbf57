import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';

const t = setupTestApp();

/**
 * The OpenAPI spellings of a Fastify route: {id} for :id, and the prefix root `/api` (which
 * Fastify also answers as `/api/`) documented once.
 */
const openApiPaths = (url: string) => {
  const path = url.replace(/:(\w+)/g, '{$1}');
  return [path, `${path}/`];
};

describe('GET /api/openapi.json', () => {
  it('documents every API route with its method, generated from the schemas that validate requests', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');

    const undocumented = t.app.apiRoutes
      .filter((route) => route.method !== 'HEAD' && route.url !== '/api/openapi.json')
      .filter((route) => !openApiPaths(route.url).some((path) => document.paths[path]?.[route.method.toLowerCase()]))
      .map((route) => `${route.method} ${route.url}`);
    expect(undocumented).toEqual([]);
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
