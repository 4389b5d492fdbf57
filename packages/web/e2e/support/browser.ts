import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { expectPlainWords } from './plain-words.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const artifactsDir = path.join(repoDir, 'test-artifacts');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** One headless Chromium for the whole test file. */
export function setupBrowser(): { browser: Browser } {
  const holder = {} as { browser: Browser };
  beforeAll(async () => {
    holder.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });
  afterAll(async () => {
    await holder.browser?.close();
  });
  return holder;
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions of the page; a test ends by expecting none. */
  pageErrors: Error[];
  close(): Promise<void>;
}

/** The live event stream, open as long as someone is signed in: it never finishes loading. */
const isLiveEventStream = (request: Request) =>
  new URL(request.url()).pathname === '/api/events' && request.headers().accept === 'text/event-stream';

/** Each session page's requests in flight, the live event stream left out. */
const requestsInFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page) {
  const inFlight = new Set<Request>();
  requestsInFlight.set(page, inFlight);
  page.on('request', (request) => {
    if (!isLiveEventStream(request)) inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
}

/** How long the network must be quiet for the page to count as settled (Playwright's 'networkidle' wait). */
const NETWORK_QUIET_MS = 500;

/**
 * Waits until the page has loaded and made no request for half a second, as Playwright's
 * 'networkidle' does, but leaving out the live event stream of a signed-in page, which stays open.
 */
export async function waitForNetworkIdle(page: Page, timeoutMs = 10_000) {
  await page.waitForLoadState('load');
  const inFlight = requestsInFlight.get(page);
  if (!inFlight) return page.waitForLoadState('networkidle');
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() - quietSince < NETWORK_QUIET_MS) {
    if (Date.now() > deadline) throw new Error(`The network did not settle within ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (inFlight.size > 0) quietSince = Date.now();
  }
}

/** A fresh browser profile (its own storage and cookies), as a separate person would have. */
export async function openSession(browser: Browser, baseURL: string, viewport = { width: 1280, height: 900 }, timezoneId?: string): Promise<Session> {
  // A reader in another time zone than the server's, when given.
  const context = await browser.newContext({ baseURL, viewport, ...(timezoneId ? { timezoneId } : {}) });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  trackRequests(page);
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  return {
    context,
    page,
    pageErrors,
    close: () => context.close(),
  };
}

/**
 * A function that opens a fresh session on the file's browser and marketplace whenever a test
 * asks for one; every session it opened is closed after the file.
 */
export function setupSessions(chromium: { browser: Browser }, market: { url: string }) {
  const sessions: Session[] = [];
  afterAll(async () => {
    for (const session of sessions.splice(0)) await session.close();
  });
  return async (viewport?: { width: number; height: number }) => {
    const session = await openSession(chromium.browser, market.url, viewport);
    sessions.push(session);
    return session;
  };
}

/**
 * Runs axe-core on the page and fails on any serious or critical violation. Toasts come and go
 * with fade animations, and a half-faded toast reads as low contrast, so they are left out unless
 * asked for; then the check waits for their animations to finish first.
 */
export async function expectAccessible(page: Page, label: string, { includeToasts = false } = {}) {
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (includeToasts) {
    await page.waitForFunction(
      `document.getAnimations().every((a) => a.effect?.getTiming().iterations === Infinity || a.playState !== 'running')`,
    );
  } else {
    axe = axe.exclude('[data-rht-toaster]');
  }
  const results = await axe.analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(severe, `accessibility violations on ${label}`).toEqual([]);
}

/** Writes a full-page screenshot to test-artifacts/. */
export async function saveScreenshot(page: Page, name: string, { fullPage = true } = {}) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage });
}

/** Accessibility check, plain words and screenshot of a page, once it has settled. */
export async function checkPage(page: Page, name: string, options: { fullPage?: boolean; includeToasts?: boolean } = {}) {
  await waitForNetworkIdle(page);
  await expectAccessible(page, name, { includeToasts: options.includeToasts });
  await expectPlainWords(page, name);
  await saveScreenshot(page, name, { fullPage: options.fullPage });
}
