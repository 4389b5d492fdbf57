import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { LOGIN_THROTTLE } from '../users/login-throttle.ts';

/** Fails sign-ins from one socket address, each claiming another address in X-Forwarded-For. */
async function failFromOneSocket(app: ReturnType<typeof setupTestApp>['app'], attempts: number) {
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.7',
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
      payload: { email: `guess-${i}@example.com`, password: 'Wrong123' },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('the caller’s address', () => {
  const direct = setupTestApp();
  const behindProxy = setupTestApp({ trustProxy: (_address: string, hop: number) => hop < 1 });

  it('ignores X-Forwarded-For by default, so per-address limits cannot be dodged with it', async () => {
    const statuses = await failFromOneSocket(direct.app, LOGIN_THROTTLE.maxFailuresPerAddress + 1);
    expect(statuses.at(-1)).toBe(429);
  });

  it('believes X-Forwarded-For from the proxies TRUST_PROXY names', async () => {
    const statuses = await failFromOneSocket(behindProxy.app, LOGIN_THROTTLE.maxFailuresPerAddress + 1);
    expect(statuses.every((status) => status === 401)).toBe(true);
  });
});
