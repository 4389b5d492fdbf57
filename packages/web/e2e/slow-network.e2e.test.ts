import { LOADING_PAGE_TEXT, labels, searchTexts } from '@furniture/contract';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser } from '../../server/src/demo/factories.ts';
import { expectAccessible, openSession, saveScreenshot, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';

/**
 * A visitor on a slow network (2 s latency, 40 KB/s): whatever they press shows progress at once,
 * before the app's code has loaded and after, until the answer arrives.
 */

/** Loading a page and the app's code at that speed takes the better part of a minute. */
const SLOW_TEST_MS = 180_000;

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const seller = await createUser(market.db, { role: 'seller', verified: true, image });
  const sofas = await createCategory(market.db, { categoryName: 'Sofas', image });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, { productName: 'Velvet sofa', condition: 'Good', productImage: image });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, { productName: 'Leather sofa', condition: 'Excellent', productImage: image });
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

/**
 * Records, in the order they happen, each change of what the page shows as progress (the bar of
 * the page's first script, the search's spinner, what is marked busy) and each search answer that
 * arrives, so a test can tell which came first without measuring time.
 */
const RECORD_PROGRESS = `
  window.progressLog = [];
  let shown = '';
  const note = () => {
    const now = [
      document.querySelector('progress[aria-label="${LOADING_PAGE_TEXT}"]') ? 'bar' : '',
      ...[...document.querySelectorAll('[aria-busy="true"]')].map((element) => 'busy ' + (element.dataset.testid ?? element.tagName.toLowerCase())),
      document.querySelector('[role="status"]')?.textContent === '${searchTexts.searching}' ? 'searching' : '',
    ].filter(Boolean).join(', ');
    if (now !== shown) window.progressLog.push(shown = now);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const url = new URL(entry.name);
      if (url.pathname === '/api/products') window.progressLog.push('results ' + url.search);
    }
  }).observe({ type: 'resource' });
`;
const progressLog = (page: Page) => page.evaluate<string[]>('window.progressLog');

async function openSlowly(viewport: { width: number; height: number }) {
  session = await openSession(chromium.browser, market.url, viewport);
  const { context, page } = session;
  context.setDefaultTimeout(60_000);
  await page.addInitScript(RECORD_PROGRESS);
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.enable');
  await devtools.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 40 * 1024, uploadThroughput: 40 * 1024 });
  return page;
}

describe('on a slow network', () => {
  it('shows progress at once for a filter pressed before the app has loaded, and for the search it makes after', async () => {
    const page = await openSlowly({ width: 1280, height: 900 });
    // The page as served, its first script running: the app's code loads on the first tap.
    await page.goto('/search?q=sofa', { waitUntil: 'domcontentloaded' });
    const filters = page.getByRole('form', { name: searchTexts.filters });
    const good = filters.getByRole('checkbox', { name: 'Good' });
    const bar = page.getByRole('progressbar', { name: LOADING_PAGE_TEXT });

    await good.click();
    // Held until the app has loaded, the tap shows at once that it was taken.
    await bar.waitFor();
    expect(await filters.locator('label', { hasText: 'Good' }).getAttribute('aria-busy')).toBe('true');
    await saveScreenshot(page, 'slow-network-first-tap', { fullPage: false });
    await expectAccessible(page, 'slow-network-first-tap');
    // The app made the tap once loaded, and shows its own progress from then on.
    await expect.poll(() => good.isChecked(), { timeout: SLOW_TEST_MS }).toBe(true);
    await bar.waitFor({ state: 'hidden' });
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);

    await filters.getByRole('button', { name: searchTexts.applyFilters }).click();
    const results = page.getByTestId('search-results');
    await page.getByRole('status').filter({ hasText: searchTexts.searching }).waitFor();
    expect(await results.getAttribute('aria-busy')).toBe('true');
    await expect.poll(() => page.getByTestId('product-card').count()).toBe(1);
    expect(await results.getAttribute('aria-busy')).toBe('false');

    // Each progress came before the answer it waited for: the first tap's bar before any search
    // (the first results came with the page), the spinner before the filtered results.
    const log = await progressLog(page);
    const filtered = log.findIndex((entry) => entry.startsWith('results ') && entry.includes('condition=Good'));
    expect(filtered).toBeGreaterThan(0);
    expect(log.slice(0, log.indexOf('bar, busy label') + 1)).not.toContainEqual(expect.stringMatching(/^results /));
    expect(log.indexOf('bar, busy label')).toBeGreaterThanOrEqual(0);
    expect(log.slice(0, filtered)).toContain('busy search-results, searching');
  }, SLOW_TEST_MS);

  it('shows progress at once for Book Now pressed on a phone before the app has loaded', async () => {
    const page = await openSlowly({ width: 375, height: 800 });
    await page.goto('/search?q=velvet', { waitUntil: 'domcontentloaded' });
    const bookNow = page.getByRole('button', { name: `${labels.product.bookNow}: Velvet sofa` });
    await bookNow.click();
    await page.getByRole('progressbar', { name: LOADING_PAGE_TEXT }).waitFor();
    expect(await bookNow.getAttribute('aria-busy')).toBe('true');
    await saveScreenshot(page, 'slow-network-book-now-phone', { fullPage: false });
    // A visitor who books is asked to log in first, once the app has loaded.
    await page.waitForURL((url) => url.pathname === '/login');
    // The login page's code may still be on its way (the app's own "Loading page"); then nothing is left busy.
    await expect.poll(() => page.getByRole('progressbar', { name: LOADING_PAGE_TEXT }).count(), { timeout: SLOW_TEST_MS }).toBe(0);
  }, SLOW_TEST_MS);
});
