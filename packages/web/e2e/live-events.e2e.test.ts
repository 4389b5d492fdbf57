import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { publishLiveEvent } from '../../server/src/events/live-events.ts';
import type { UserRow } from '../../server/src/users/user-repository.ts';
import { openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;
let user: UserRow;
const email = 'live.events@example.com';

/**
 * The built module of src/lib/live-events.ts. The test imports the very module the app loaded (the
 * same URL is the same module instance), and subscribes through it as a feature would.
 */
let liveEventsModule: string;

beforeAll(async () => {
  user = await createUser(market.db, { email, role: 'buyer', name: 'Live Events' });
  const manifest = JSON.parse(
    fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  liveEventsModule = `/${manifest['src/lib/live-events.ts']!.file}`;
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

interface PageWithEvents {
  received: Array<{ id: string; type: string; data: unknown }>;
  liveStatus: string;
}

/**
 * Subscribes the page to `test.ping` events and records the connection's status, through the app's
 * own module. (A string, so that the test runner leaves its dynamic import alone.)
 */
async function subscribe(session: Session) {
  await session.page.evaluate(`(async () => {
    const liveEvents = await import(${JSON.stringify(liveEventsModule)});
    window.received = [];
    window.liveStatus = liveEvents.liveEventsStatus();
    liveEvents.onLiveEventsStatus((status) => (window.liveStatus = status));
    liveEvents.subscribeToLiveEvents('test.ping', (event) => window.received.push(event));
  })()`);
}

const received = (session: Session) => session.page.evaluate(() => (globalThis as unknown as PageWithEvents).received);
const waitForReceived = (session: Session, count: number) =>
  session.page.waitForFunction((n) => (globalThis as unknown as PageWithEvents).received.length >= n, count, { timeout: 30_000 });
const ping = (n: number) => publishLiveEvent(market.db, { to: user.id, type: 'test.ping', data: { n } });

describe('live events in the web app', () => {
  it('are not loaded for a visitor', async () => {
    session = await openSession(chromium.browser, market.url);
    const requested: string[] = [];
    session.page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await session.page.goto('/');
    await session.page.waitForLoadState('networkidle');
    expect(requested.filter((pathname) => pathname === '/api/events' || pathname === liveEventsModule)).toEqual([]);
  });

  it('stream to a signed-in tab, one connection, and resume after the server ends the stream without missing an event', async () => {
    session = await openSession(chromium.browser, market.url);
    await logIn(session.page, email, DEFAULT_TEST_PASSWORD);
    await vi.waitFor(() => expect(market.app.liveEvents.streamCount(user.id)).toBe(1), { timeout: 10_000 });
    await subscribe(session);
    // The server counts the stream as it sends its `ready` event; the tab is streaming once that event arrives.
    await expect.poll(() => session.page.evaluate(() => (globalThis as unknown as PageWithEvents).liveStatus)).toBe('streaming');

    await ping(1);
    await waitForReceived(session, 1);
    expect(await received(session)).toEqual([{ id: expect.stringMatching(/^\d+$/), type: 'test.ping', data: { n: 1 } }]);

    // The server ends the stream (as when it shuts down); an event is published before the tab is back.
    market.app.liveEvents.endAll();
    await ping(2);
    await waitForReceived(session, 2);
    await ping(3);
    await waitForReceived(session, 3);
    expect((await received(session)).map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(market.app.liveEvents.streamCount(user.id)).toBe(1);
  });

  it('fall back to polling when the stream cannot be opened', async () => {
    session = await openSession(chromium.browser, market.url);
    // A proxy that refuses streams: JSON requests pass, event streams get 502.
    await session.context.route('**/api/events*', (route) =>
      route.request().headers().accept?.includes('text/event-stream') ? route.fulfill({ status: 502, body: 'Bad gateway' }) : route.continue(),
    );
    // The first poll of a tab that never streamed answers where it starts from.
    const firstPoll = session.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/events' && response.request().headers().accept === 'application/json',
      { timeout: 30_000 },
    );
    await logIn(session.page, email, DEFAULT_TEST_PASSWORD);
    await subscribe(session);
    await firstPoll;
    expect(await session.page.evaluate(() => (globalThis as unknown as PageWithEvents).liveStatus)).toBe('polling');

    await ping(4);
    await waitForReceived(session, 1);
    expect(await received(session)).toEqual([{ id: expect.stringMatching(/^\d+$/), type: 'test.ping', data: { n: 4 } }]);
    expect(market.app.liveEvents.streamCount(user.id)).toBe(0);
  });
});
