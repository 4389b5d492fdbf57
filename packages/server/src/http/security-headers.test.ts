import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache.ts';

const t = setupTestApp({ corsOrigin: 'https://shop.example.com' });

describe('security headers', () => {
  it('sends a content-security policy that keeps scripts to this origin (and Stripe’s), on every response', async () => {
    for (const url of ['/api/health', '/api/no-such-route']) {
      const response = await t.app.inject({ method: 'GET', url });
      const policy = response.headers['content-security-policy'] as string;
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self' https://js.stripe.com");
      expect(policy).toContain("object-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBeDefined();
    }
  });

  it('keeps the opener for sign-in popups, and does not force https on a plain-http address', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('caching of API answers', () => {
  it('keeps an answer out of browser and proxy caches unless its route says how to keep it', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const categories = await t.app.inject({ method: 'GET', url: '/api/allCategories' });
    expect(categories.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
  });
});

describe('CORS', () => {
  const allowed = 'https://shop.example.com';

  it('lets the configured origin read answers with credentials, and says answers vary by Origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/allCategories', headers: { origin: allowed } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(allowed);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers.vary).toMatch(/^Origin\b/);
  });

  it('answers the configured origin’s preflight for every method the API has, with the headers it asked for', async () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const response = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin: allowed, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['access-control-allow-origin']).toBe(allowed);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(String(response.headers['access-control-allow-methods']).split(', ')).toContain(method);
      expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type');
      expect(response.headers.vary).toBe('Origin, Access-Control-Request-Headers');
    }
  });

  it('gives any other origin, and a request without one, no permission', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    const read = await t.app.inject({ method: 'GET', url: '/api/allCategories', headers: { origin: 'https://evil.example.net' } });
    const sameOrigin = await t.app.inject({ method: 'GET', url: '/api/allCategories' });
    for (const response of [preflight, read, sameOrigin]) {
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers['access-control-allow-methods']).toBeUndefined();
    }
    expect(read.statusCode).toBe(200);
    expect(read.headers.vary).toMatch(/^Origin\b/);
  });
});
