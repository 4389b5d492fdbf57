import { FIRST_ANSWERS_ELEMENT_ID, labels, searchTexts, texts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { openSession, setupBrowser, type Session } from './support/browser.ts';
import { createPineStools, setupMarketplace } from './support/marketplace.ts';
import { logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const phone = { width: 375, height: 800 };
const buyerEmail = 'render-searcher@example.com';
let session: Session;
/** What the page logged as an error: React reports a failed hydration there. */
let consoleErrors: string[];
/** The search reads the page asked the API for itself. */
let searchRequests: string[];

beforeAll(async () => {
  const image = (name: string) => `${market.url}/demo/${name}.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Nasima Akter', verified: true });
  await createUser(market.db, { role: 'buyer', name: 'Render Searcher', email: buyerEmail });
  const sofas = await createCategory(market.db, { categoryName: 'Sofas', image: image('sofa-1') });
  const stools = await createCategory(market.db, { categoryName: 'Stools', image: image('chair-1') });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, {
    productName: 'Velvet sofa',
    condition: 'Good',
    resalePrice: '450.00',
    photos: [image('sofa-1')],
    measurements: { widthCm: 210, depthCm: 90, heightCm: 85 },
  });
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, {
    productName: 'Leather sofa',
    condition: 'Excellent',
    resalePrice: '700.00',
    photos: [image('sofa-2')],
    measurements: { widthCm: 160, depthCm: 85, heightCm: 80 },
  });
  await createPineStools(market, { categoryId: stools.id, sellerId: seller.id });
});

async function open(viewport?: { width: number; height: number }, timezoneId?: string) {
  session = await openSession(chromium.browser, market.url, viewport, timezoneId);
  consoleErrors = [];
  searchRequests = [];
  session.page.on('console', (message) => {
    // Pictures the test's users and products point to that do not exist are not the page's errors.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
  });
  session.page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/products') searchRequests.push(url.search);
  });
  return session.page;
}

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

const cards = () => session.page.getByTestId('product-card');
const serverRendered = (html: string) => html.includes('<div id="root" data-server-rendered>');
/** Keeps the page's heading and first card, to tell afterwards whether hydration kept them. */
const noteServerElements = (page: Session['page']) =>
  page.evaluate(`window.serverElements = [document.querySelector('h1'), document.querySelector('[data-testid="product-card"]')]`);
const serverElementsKept = (page: Session['page']) =>
  page.evaluate(
    `window.serverElements[0] === document.querySelector('h1') && window.serverElements[1] === document.querySelector('[data-testid="product-card"]')`,
  );

describe('search rendered by the server', () => {
  it('holds the results, the filters with their counts, the sort and Load more in its HTML, before any script', async () => {
    await open();
    const response = await fetch(`${market.url}/search?q=stool`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(serverRendered(html)).toBe(true);
    // The first page's answer, under the URL the app asks for.
    const answers = JSON.parse(new RegExp(`id="${FIRST_ANSWERS_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html)![1]!) as Record<string, unknown>;
    expect(Object.keys(answers).sort()).toEqual(['/api/allCategories', '/api/config', '/api/products?q=stool']);

    const context = await chromium.browser.newContext({ baseURL: market.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/search?q=stool');
      await page.getByRole('heading', { name: searchTexts.resultsFor('stool'), level: 1 }).waitFor();
      expect(await page.getByTestId('result-count').innerText()).toBe(searchTexts.resultCount(30, false));
      expect(await page.getByTestId('product-card').count()).toBe(24);
      const filters = page.getByRole('form', { name: searchTexts.filters });
      expect(await filters.locator('label', { hasText: 'Good' }).innerText()).toContain('(20)');
      expect(await filters.locator('label', { hasText: 'Fair' }).innerText()).toContain('(10)');
      expect(await filters.getByLabel(searchTexts.category).locator('option', { hasText: 'Stools' }).innerText()).toBe('Stools (30)');
      expect(await page.getByLabel(searchTexts.sortLabel).inputValue()).toBe('relevance');
      expect(await page.getByRole('button', { name: searchTexts.loadMore }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('renders a search without results with its way out', async () => {
    await open();
    const html = await (await fetch(`${market.url}/search?q=sofa&maxPrice=5`)).text();
    expect(serverRendered(html)).toBe(true);
    expect(html).toContain(searchTexts.noResults);
    expect(html).toMatch(new RegExp(`<a [^>]*href="/search\\?q=sofa"[^>]*>${searchTexts.clearFilters}</a>`));
  });

  it('is hydrated without asking for its results again, then loads more, filters, sorts and goes Back', async () => {
    const page = await open();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // A blank parameter, which the app leaves out of its read, as the server does.
    await page.goto('/search?q=stool&location=');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((script) => script.includes('framework'))).toEqual([]);
    await noteServerElements(page);
    // The first tap loads the app; the held click then loads the next page.
    await page.getByRole('button', { name: searchTexts.loadMore }).click();
    await expect.poll(() => cards().count()).toBe(30);
    expect(await serverElementsKept(page)).toBe(true);
    // Only the second page was asked for: the first came with the HTML.
    expect(searchRequests).toHaveLength(1);
    expect(new URLSearchParams(searchRequests[0]).has('cursor')).toBe(true);

    const filters = page.getByRole('form', { name: searchTexts.filters });
    await filters.getByRole('checkbox', { name: 'Good' }).check();
    await filters.getByRole('button', { name: searchTexts.applyFilters }).click();
    await page.waitForURL((url) => url.searchParams.getAll('condition').join() === 'Good');
    await expect.poll(() => cards().count()).toBe(20);
    await page.getByLabel(searchTexts.sortLabel).selectOption('price-desc');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price-desc');
    await expect.poll(() => cards().first().innerText()).toContain('Pine stool 29\n');

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('sort') && url.searchParams.has('condition'));
    await page.goBack();
    await page.waitForURL((url) => url.search === '?q=stool&location=');
    await expect.poll(() => cards().count()).toBe(30);
    expect(await page.getByLabel(searchTexts.sortLabel).inputValue()).toBe('relevance');
    expect(consoleErrors).toEqual([]);
  });

  it('opens its filters in a drawer on a phone, for a reader in another time zone than the server’s', async () => {
    const page = await open(phone, 'Asia/Dhaka');
    expect(serverRendered(await (await page.goto('/search?q=sofa'))!.text())).toBe(true);
    await page.waitForLoadState('networkidle');
    await noteServerElements(page);
    const posted = cards().first().locator('time');
    const postedAt = (await posted.getAttribute('datetime'))!;
    const dhaka = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Dhaka' }).format(new Date(postedAt));
    // The first tap loads the app; the held click then opens the drawer.
    await page.getByRole('button', { name: searchTexts.showFilters }).click();
    const drawer = page.getByRole('dialog', { name: searchTexts.filters });
    await drawer.waitFor();
    expect(await serverElementsKept(page)).toBe(true);
    await expect.poll(() => posted.innerText()).toBe(dhaka);
    await drawer.getByLabel(searchTexts.width).last().fill('80');
    await drawer.getByLabel(searchTexts.height).last().fill('200');
    await drawer.getByRole('button', { name: searchTexts.applyFilters }).click();
    await page.waitForURL((url) => url.searchParams.get('doorWidth') === '80');
    await expect.poll(() => cards().count()).toBe(1);
    await drawer.waitFor({ state: 'hidden' });
    expect(consoleErrors).toEqual([]);
  });

  it.each([
    ['on a phone', phone],
    ['on a laptop', { width: 1280, height: 900 }],
  ])('lets a buyer in another time zone book from a card with the first tap %s, the app starting at once', async (_, viewport) => {
    const page = await open(viewport, 'Asia/Dhaka');
    await logIn(page, buyerEmail, DEFAULT_TEST_PASSWORD);
    expect(serverRendered(await (await page.goto('/search?q=velvet'))!.text())).toBe(true);
    // No waiting for the app: a tap made before it handles events is held until it does.
    await page.getByRole('button', { name: `${labels.product.bookNow}: Velvet sofa` }).click();
    await page.getByRole('dialog', { name: texts.bookingTitle }).waitFor();
    expect(searchRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('is left to the app, with status 200, when the API refuses the search’s parameters', async () => {
    const page = await open(phone);
    const response = await page.goto('/search?q=sofa&minPrice=5&maxPrice=1');
    expect(response?.status()).toBe(200);
    expect(serverRendered(await response!.text())).toBe(false);
    await page.getByRole('alert').filter({ hasText: /price/i }).waitFor();
    await page.getByRole('link', { name: searchTexts.clearFilters }).click();
    await page.waitForURL((url) => url.search === '?q=sofa');
    await expect.poll(() => cards().count()).toBe(2);
  });
});
