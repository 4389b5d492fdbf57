import { labels, productPageTexts, searchTexts, texts, uiTexts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { createPineStools, setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectText, logIn, sidewaysOverflow } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;
let sofaId: string;
let withdrawnId: string;
const buyerEmail = 'searcher@example.com';

beforeAll(async () => {
  const image = (name: string) => `${market.url}/demo/${name}.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Karim Hossain', verified: true });
  await createUser(market.db, { role: 'buyer', name: 'Sara Searcher', email: buyerEmail });
  const sofas = await createCategory(market.db, { categoryName: 'Sofas', image: image('sofa-1') });
  const stools = await createCategory(market.db, { categoryName: 'Stools', image: image('chair-1') });
  const sofa = await createProduct(
    market.db,
    { categoryId: sofas.id, sellerId: seller.id },
    {
      productName: 'Velvet sofa',
      description: 'Deep green velvet, three seats',
      condition: 'Good',
      resalePrice: '450.00',
      location: 'Banani, Dhaka',
      photos: [image('sofa-1'), image('sofa-2'), image('armchair-1')],
      measurements: { widthCm: 210, depthCm: 90, heightCm: 85 },
    },
  );
  sofaId = sofa.id;
  await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, {
    productName: 'Leather sofa',
    description: 'Brown leather, two seats',
    condition: 'Excellent',
    resalePrice: '700.00',
    photos: [image('sofa-2')],
    measurements: { widthCm: 160, depthCm: 85, heightCm: 80 },
  });
  await createPineStools(market, { categoryId: stools.id, sellerId: seller.id });
  withdrawnId = (
    await createProduct(market.db, { categoryId: sofas.id, sellerId: seller.id }, { productName: 'Corner sofa', resalePrice: '500.00', state: 'withdrawn' })
  ).id;
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

const cards = (session: Session) => session.page.getByTestId('product-card');

describe('finding furniture', () => {
  it('searches from the navbar with a typo, filters, sorts, loads more, opens a piece, and Back restores the search', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('sofaa');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).press('Enter');
    await expectPath(page, '/search');
    await page.getByRole('heading', { name: searchTexts.resultsFor('sofaa') }).waitFor();
    await cards(session).filter({ hasText: 'Velvet sofa' }).waitFor();
    expect(await cards(session).count()).toBe(2);
    await checkPage(page, 'search-results');

    // A filter narrows the results and goes into the URL.
    const filters = page.getByRole('form', { name: searchTexts.filters });
    await filters.getByRole('checkbox', { name: 'Good' }).check();
    await filters.getByRole('button', { name: searchTexts.applyFilters }).click();
    await page.waitForURL((url) => url.searchParams.getAll('condition').join() === 'Good');
    await expect.poll(() => cards(session).count()).toBe(1);
    await cards(session).filter({ hasText: 'Velvet sofa' }).waitFor();

    // Everything, cheapest first, page after page.
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).press('Enter');
    await page.getByRole('heading', { name: searchTexts.allFurniture }).waitFor();
    await page.getByTestId('result-count').getByText(searchTexts.resultCount(32, false)).waitFor();
    await page.getByLabel(searchTexts.sortLabel).selectOption('price-asc');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price-asc');
    await expect.poll(() => cards(session).first().innerText()).toContain('Pine stool 1\n');
    expect(await cards(session).count()).toBe(24);
    await page.getByRole('button', { name: searchTexts.loadMore }).click();
    await expect.poll(() => cards(session).count()).toBe(32);
    expect(await cards(session).last().innerText()).toContain('Leather sofa');
    expect(await page.getByRole('button', { name: searchTexts.loadMore }).count()).toBe(0);

    // Open a piece from its card, look through its photos, and come back.
    await page.getByRole('link', { name: 'Velvet sofa' }).click();
    await expectPath(page, `/product/${sofaId}`);
    await page.getByRole('heading', { name: 'Velvet sofa', level: 1 }).waitFor();
    expect(await page.getByTestId('measurements').innerText()).toBe('210 × 90 × 85 cm (W × D × H)');
    const gallery = page.getByTestId('gallery');
    expect(await gallery.getAttribute('aria-label')).toBe(`Velvet sofa: ${productPageTexts.photoOf(1, 3)}`);
    await page.getByRole('button', { name: productPageTexts.nextPhoto }).click();
    expect(await gallery.getAttribute('aria-label')).toBe(`Velvet sofa: ${productPageTexts.photoOf(2, 3)}`);
    await gallery.focus();
    await page.keyboard.press('ArrowRight');
    expect(await gallery.getAttribute('aria-label')).toBe(`Velvet sofa: ${productPageTexts.photoOf(3, 3)}`);
    await page.getByRole('heading', { name: productPageTexts.similar }).waitFor();
    await page.getByRole('link', { name: 'Leather sofa' }).waitFor();
    await checkPage(page, 'product-page');

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('sort') === 'price-asc');
    await expect.poll(() => cards(session).count()).toBeGreaterThanOrEqual(24);
    expect(await page.getByLabel(searchTexts.sortLabel).inputValue()).toBe('price-asc');
  });

  it('titles a search by place alone with the place', async () => {
    session = await openSession(chromium.browser, market.url);
    await session.page.goto('/search?location=Dhanmondi');
    await session.page.getByRole('heading', { name: searchTexts.furnitureIn('Dhanmondi'), level: 1 }).waitFor();
  });

  it('says when nothing matches and offers to clear the filters', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/search?q=sofa&maxPrice=5');
    await expectText(page, searchTexts.noResults);
    await page.getByRole('link', { name: searchTexts.clearFilters }).click();
    await page.waitForURL((url) => url.search === '?q=sofa');
    await expect.poll(() => cards(session).count()).toBe(2);
  });

  it('explains a filter that cannot be used in plain words, naming no field by its code name', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/search?q=sofa&doorWidth=80');
    await expectText(page, 'Doorway height is needed with the other door measurement');
    await checkPage(page, 'search-door-half-given');
    await page.goto('/search?q=sofa&minPrice=50&maxPrice=10');
    await expectText(page, 'Lowest price must not be more than highest price');
    await checkPage(page, 'search-prices-crossed');
  });

  it('searches a category from the categories grid', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/categories');
    await page.getByRole('link', { name: searchTexts.searchInCategory('Stools') }).click();
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.has('categoryId'));
    await page.getByTestId('result-count').getByText(searchTexts.resultCount(30, false)).waitFor();
    expect(await page.getByLabel(searchTexts.category).locator('option:checked').innerText()).toMatch(/^Stools/);
  });

  it('lets a buyer book from the product page', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, buyerEmail, DEFAULT_TEST_PASSWORD);
    await page.goto(`/product/${sofaId}`);
    await page.getByRole('button', { name: `${labels.product.bookNow}: Velvet sofa` }).click();
    const modal = page.getByRole('dialog', { name: texts.bookingTitle });
    await modal.waitFor();
    await modal.getByLabel(labels.booking.phoneNumber).fill('01712345678');
    await modal.getByLabel(labels.booking.meetingLocation).fill('Banani 11');
    await modal.getByRole('button', { name: labels.booking.confirm }).click();
    await expectText(page, 'Velvet sofa is booked');
  });

  it('answers an unknown page and an unknown product with 404 and the error page, the navbar and its search box kept', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    for (const url of ['/no-such-page', '/product/00000000-0000-4000-8000-000000000000']) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await page.getByRole('heading', { name: texts.errorTitle }).waitFor();
      await expectText(page, texts.errorNotFound);
      await page.getByRole('navigation', { name: uiTexts.shell.mainNavigation }).waitFor();
      await page.getByRole('search').getByRole('searchbox', { name: searchTexts.searchLabel }).waitFor();
      await page.getByRole('main').getByRole('link', { name: labels.errorPage.home, exact: true }).waitFor();
      expect(await page.locator('body').innerText(), url).not.toContain('No route matches');
    }
    await checkPage(page, 'product-not-found');
    // The search box there works: the person is not stranded.
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('sofa');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).press('Enter');
    await expect.poll(() => cards(session).count()).toBe(2);
  });

  it('answers a listing that is gone with 410, a page that says so, and similar pieces on sale', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 800 }]) {
      session = await openSession(chromium.browser, market.url, viewport);
      const { page } = session;
      const response = await page.goto(`/product/${withdrawnId}`);
      expect(response?.status()).toBe(410);
      await page.getByRole('heading', { name: productPageTexts.goneTitle('Corner sofa') }).waitFor();
      await expectText(page, productPageTexts.gone);
      await expectText(page, productPageTexts.goneExplained);
      await cards(session).filter({ hasText: 'Velvet sofa' }).waitFor();
      expect(await cards(session).count()).toBe(2);
      await page.getByRole('navigation', { name: uiTexts.shell.mainNavigation }).waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      await checkPage(page, `product-gone-${viewport.width}`);
      if (viewport.width === 375) break;
      expect(session.pageErrors).toEqual([]);
      await session.close();
    }
  });
});

describe('on a phone', () => {
  it('searches and filters in a drawer by doorway, without sideways scrolling', async () => {
    session = await openSession(chromium.browser, market.url, { width: 375, height: 800 });
    const { page } = session;
    await page.goto('/');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('sofa');
    await page.getByRole('button', { name: searchTexts.searchButton }).click();
    await cards(session).filter({ hasText: 'Leather sofa' }).waitFor();
    expect(await page.getByRole('form', { name: searchTexts.filters }).isVisible()).toBe(false);

    await page.getByRole('button', { name: searchTexts.showFilters }).click();
    const drawer = page.getByRole('dialog', { name: searchTexts.filters });
    await drawer.waitFor();
    await checkPage(page, 'search-filters-phone');
    await drawer.getByLabel(searchTexts.width).last().fill('80');
    await drawer.getByLabel(searchTexts.height).last().fill('200');
    await drawer.getByRole('button', { name: searchTexts.applyFilters }).click();
    await page.waitForURL((url) => url.searchParams.get('doorWidth') === '80' && url.searchParams.get('doorHeight') === '200');
    // The velvet sofa is 85 cm at its thinnest, too thick for an 80 cm door; the leather one is 80.
    await expect.poll(() => cards(session).count()).toBe(1);
    await cards(session).filter({ hasText: 'Leather sofa' }).waitFor();
    await drawer.waitFor({ state: 'hidden' });
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, 'search-results-phone');
  });

  it('opens a piece from filtered results and comes back to them, without sideways scrolling', async () => {
    session = await openSession(chromium.browser, market.url, { width: 375, height: 800 });
    const { page } = session;
    await page.goto('/search?q=sofa&doorWidth=80&doorHeight=200');
    await cards(session).filter({ hasText: 'Leather sofa' }).waitFor();
    expect(await cards(session).count()).toBe(1);

    await page.getByRole('link', { name: 'Leather sofa' }).click();
    await page.getByRole('heading', { name: 'Leather sofa', level: 1 }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, 'product-page-phone');
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('doorWidth') === '80');
    await cards(session).filter({ hasText: 'Leather sofa' }).waitFor();
    expect(await cards(session).count()).toBe(1);
  });
});
