import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser } from '../../server/src/demo/factories.ts';
import { openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';

/** Home's first load may bring at most this much CSS, gzipped (decision 26). */
const HOME_CSS_BUDGET = 12 * 1024;

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session | undefined;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Farhana Islam' });
  const sofas = await createCategory(market.db, { categoryName: 'Sofas', description: 'Two- and three-seaters', image });
  await createCategory(market.db, { categoryName: 'Tables', description: 'Dining and coffee tables', image });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, { productName: 'Oak sideboard', advertisement: true, productImage: image });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, { productName: 'Linen armchair', advertisement: true, productImage: image });
});

afterEach(async () => {
  expect(session?.pageErrors ?? []).toEqual([]);
  await session?.close();
  session = undefined;
});

const stylesheets = (html: string) => [...html.matchAll(/<link rel="stylesheet"[^>]* href="([^"]+)"/g)].map((match) => match[1]!);

async function pageStylesheets(path: string) {
  const response = await fetch(`${market.url}${path}`);
  expect(response.status).toBe(200);
  return stylesheets(await response.text());
}

/** The whole page as a reader scrolling down sees it: every picture loaded, the lazy ones too. */
async function picture(page: Page) {
  // Scripts for the page as strings: this file is compiled without the DOM's types.
  // Not waitForFunction: it evaluates a string predicate with eval, which the app's CSP refuses.
  await page.evaluate(`Promise.all([...document.images].map((image) => {
    image.loading = 'eager';
    if (image.complete) return null;
    return new Promise((settled) => {
      image.addEventListener('load', settled, { once: true });
      image.addEventListener('error', settled, { once: true });
    });
  }))`);
  return page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
}

describe("Home's own stylesheet", () => {
  it('is the only one Home links, within the budget, and smaller than the app’s, which other pages link', async () => {
    const [home, ...moreOnHome] = await pageStylesheets('/');
    const [app, ...moreOnLogin] = await pageStylesheets('/login');
    expect(moreOnHome).toEqual([]);
    expect(moreOnLogin).toEqual([]);
    expect(home).not.toBe(app);
    const gzipped = async (href: string) => gzipSync(Buffer.from(await (await fetch(`${market.url}${href}`)).arrayBuffer()), { level: 9 }).length;
    const [homeBytes, appBytes] = await Promise.all([gzipped(home!), gzipped(app!)]);
    expect(homeBytes).toBeLessThanOrEqual(HOME_CSS_BUDGET);
    expect(homeBytes).toBeLessThan(appBytes);
  });

  // Home as first painted, with its own stylesheet only, against Home with the app's whole
  // stylesheet in its place: any rule Home uses and its stylesheet lacks shows as a difference.
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 800 },
  ]) {
    it(`styles Home at ${viewport.width} px wide exactly as the app's stylesheet does, before the app loads`, async () => {
      const [app] = await pageStylesheets('/login');
      session = await openSession(chromium.browser, market.url, viewport);
      const { page } = session;
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'stylesheet' || request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
      });
      await page.goto('/');
      await page.waitForLoadState('networkidle');
      expect(fetched.filter((file) => file.endsWith('.css'))).toEqual(await pageStylesheets('/'));
      expect(fetched.filter((file) => file.includes('framework'))).toEqual([]);
      // The phone's menu open too: it is part of Home's markup before the app loads.
      if (viewport.width < 1024) await page.evaluate(`document.querySelector('details').setAttribute('open', '')`);
      const withHomeStyles = await picture(page);

      await page.evaluate(`(async () => {
        const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: ${JSON.stringify(app)} });
        const loaded = new Promise((resolve, reject) => {
          link.onload = resolve;
          link.onerror = reject;
        });
        document.head.append(link);
        await loaded;
        for (const other of document.querySelectorAll('link[rel="stylesheet"]')) if (other !== link) other.remove();
      })()`);
      const withAppStyles = await picture(page);
      expect(withHomeStyles.equals(withAppStyles)).toBe(true);
    });
  }
});
