import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { redactUrl } from './request-log.ts';

describe('redactUrl', () => {
  it('hides the live event ticket in a logged URL, and leaves the rest as it was', () => {
    expect(redactUrl('/api/events?ticket=gLrjsqRli4cc2A3N')).toBe('/api/events?ticket=[redacted]');
    expect(redactUrl('/api/events?after=12&ticket=abc&x=1')).toBe('/api/events?after=12&ticket=[redacted]&x=1');
    expect(redactUrl('/api/events?after=12')).toBe('/api/events?after=12');
    expect(redactUrl('/api/products?noticket=1')).toBe('/api/products?noticket=1');
  });

  it('hides the unsubscribe token, sign-in codes and any signature, whatever else the URL holds', () => {
    expect(redactUrl('/api/notification-settings/unsubscribe?token=perm4nent')).toBe('/api/notification-settings/unsubscribe?token=[redacted]');
    expect(redactUrl('/api/auth/oidc/callback?code=c0de&state=st4te')).toBe('/api/auth/oidc/callback?code=[redacted]&state=[redacted]');
    expect(redactUrl('/files/a.webp?expires=1&signature=abc')).toBe('/files/a.webp?expires=1&signature=[redacted]');
    expect(redactUrl('/x?resetToken=abc#frag')).toBe('/x?resetToken=[redacted]#frag');
  });

  it('hides e-mail addresses, plain or percent-encoded, in the query and the path', () => {
    expect(redactUrl('/api/user?email=rahim@example.com')).toBe('/api/user?email=[email]');
    expect(redactUrl('/api/booking?email=rahim%40example.com&page=2')).toBe('/api/booking?email=[email]&page=2');
    expect(redactUrl('/api/users/rahim@example.com/profile')).toBe('/api/users/[email]/profile');
  });

  it('hides a secret parameter that follows a stray question mark', () => {
    expect(redactUrl('/api/events?x?ticket=abc')).toBe('/api/events?x?ticket=[redacted]');
  });

  it('reads the longest URL a request may carry in time that grows with its length, not with its square', () => {
    // Request lines reach 16 KB. Each URL is made of one character that could start a match
    // everywhere, and patterns tried from each one to the end did work growing with its square.
    const longest = ['?', 'a', '%4', 'a@'].map((part) => `/api/products?q=${part.repeat(16_000 / part.length)}`);
    const started = performance.now();
    for (let turn = 0; turn < 10; turn++) for (const url of longest) redactUrl(url);
    // Forty such URLs took seconds that way; read in linear time they take milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('the request log at npm start’s level', () => {
  let database: TestDatabase;
  let app: App;
  const lines: string[] = [];
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    database = await createTestDatabase();
    // The level a start without settings logs at, as the README runs it.
    const { logLevel } = loadConfig({ DATABASE_URL: database.url });
    expect(logLevel).toBe('info');
    app = await buildApp({ config: testConfig({ logLevel }), db: database.db, jobs: { recurring: false }, logStream: { write: (line) => void lines.push(line) } });
    // A route that logs what it should not have.
    app.get('/test/logs-a-secret', { config: { access: 'public' } }, async (request) => {
      request.log.info({ password: 'request-password', user: { refreshToken: 'request-refresh' } }, 'logged by a route');
      return {};
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('writes one line per request: method, URL without its secrets, status and time, and no credential', async () => {
    lines.length = 0;
    const token = 'eyJhbGciOiJIUzI1NiJ9.secret-looking-token.signature';
    await app.inject({ method: 'GET', url: '/api/allCategories', headers: { authorization: `Bearer ${token}`, cookie: 'refresh=cookie-secret' } });
    await app.inject({ method: 'GET', url: '/api/events?ticket=one-time-ticket' });
    await app.inject({ method: 'GET', url: '/api/no-such-route' });

    const requests = logged().filter((line) => line.msg === 'request completed');
    expect(requests).toHaveLength(3);
    expect(logged().filter((line) => line.msg === 'incoming request')).toHaveLength(0);
    expect(requests.map((line) => [line.req, line.res])).toEqual([
      [expect.objectContaining({ method: 'GET', url: '/api/allCategories' }), { statusCode: 200 }],
      [expect.objectContaining({ method: 'GET', url: '/api/events?ticket=[redacted]' }), { statusCode: 401 }],
      [expect.objectContaining({ method: 'GET', url: '/api/no-such-route' }), { statusCode: 404 }],
    ]);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 30, reqId: expect.any(String), responseTime: expect.any(Number) });
    }
    const text = lines.join('');
    for (const secret of [token, 'cookie-secret', 'one-time-ticket']) expect(text).not.toContain(secret);
  });

  it('censors a secret logged by mistake, on the line and one level down, from the app and a request alike', async () => {
    lines.length = 0;
    app.log.info(
      {
        password: 'top-password',
        user: { name: 'Rahim', passwordHash: '$argon2id$hash', tokenHash: 'hash-of-token' },
        headers: { authorization: 'Bearer header-token', 'set-cookie': 'refresh=set-cookie-secret' },
        count: 3,
      },
      'logged by mistake',
    );
    await app.inject({ method: 'GET', url: '/test/logs-a-secret' });

    const text = lines.join('');
    const secrets = ['top-password', '$argon2id$hash', 'hash-of-token', 'header-token', 'set-cookie-secret', 'request-password', 'request-refresh'];
    for (const secret of secrets) expect(text).not.toContain(secret);
    const [byMistake] = logged().filter((line) => line.msg === 'logged by mistake');
    expect(byMistake).toMatchObject({
      password: '[redacted]',
      user: { name: 'Rahim', passwordHash: '[redacted]', tokenHash: '[redacted]' },
      headers: { authorization: '[redacted]', 'set-cookie': '[redacted]' },
      count: 3,
    });
    const [byRoute] = logged().filter((line) => line.msg === 'logged by a route');
    expect(byRoute).toMatchObject({ reqId: expect.any(String), password: '[redacted]', user: { refreshToken: '[redacted]' } });
  });
});
