import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, setupBrowser } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { loadedWidth } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();

/** Another web client of the marketplace, on an origin of its own, showing one of its pictures. */
let otherClient: http.Server;
let otherOrigin: string;

beforeAll(async () => {
  otherClient = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>Another client</title><img alt="Demo armchair" src="${market.url}/demo/armchair-1.svg">`);
  });
  await new Promise<void>((resolve) => otherClient.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherClient.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => otherClient.close(resolve));
});

describe('a web client on another origin', () => {
  it('shows the demo catalogue’s pictures, which the browser would block under a same-origin resource policy', async () => {
    const session = await openSession(chromium.browser, otherOrigin);
    try {
      const { page } = session;
      const blocked: string[] = [];
      page.on('requestfailed', (request) => blocked.push(`${request.url()} ${request.failure()?.errorText}`));
      await page.goto('/');
      const picture = page.getByRole('img', { name: 'Demo armchair' });
      await expect.poll(() => loadedWidth(picture)).toBeGreaterThan(0);
      expect(blocked).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
