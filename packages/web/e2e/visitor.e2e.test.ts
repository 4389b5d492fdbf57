import { labels, texts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { controlledBy, expectPath, expectText, isFocused, sidewaysOverflow, tabStops } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

let categoryId: string;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const sofas = await createCategory(market.db, { categoryName: 'Sofas', description: 'Two- and three-seaters', image });
  await createCategory(market.db, { categoryName: 'Tables', description: 'Dining and coffee tables', image });
  categoryId = sofas.id;
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

describe('a visitor', () => {
  it('sees Home with its hero and categories, and no Advertisement section while nothing is advertised', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('link', { name: labels.home.getStarted }).waitFor();
    await page.getByRole('heading', { name: texts.furnitureCategories }).waitFor();
    await page.getByRole('heading', { name: 'Sofas' }).waitFor();
    await page.getByRole('heading', { name: 'Tables' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('heading', { name: texts.advertisement }).count()).toBe(0);
    await expectText(page, texts.brand);
    await expectText(page, texts.tagline);
    await checkPage(page, 'home-without-advertisements');

    await page.getByRole('link', { name: labels.home.getStarted }).click();
    await expectPath(page, '/categories');
  });

  it('sees advertised products on Home with every field of the product card', async () => {
    const seller = await createUser(market.db, { role: 'seller', name: 'Rahim Uddin' });
    await createProduct(
      market.db,
      { categoryId, sellerId: seller.id },
      {
        productName: 'Teak three-seater',
        condition: 'Excellent',
        description: 'Solid teak, new cushions',
        yearsOfUsedProduct: '3 years',
        originalPrice: '900.00',
        resalePrice: '450.00',
        location: 'Dhanmondi',
        advertisement: true,
        productImage: `${market.url}/favicon.svg`,
      },
    );
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('heading', { name: texts.advertisement }).waitFor();
    const card = page.getByTestId('product-card').filter({ hasText: 'Teak three-seater' });
    await card.waitFor();
    const text = await card.innerText();
    for (const expected of [
      'Excellent',
      'Solid teak, new cushions',
      `${labels.product.yearOfUsed}:`,
      '3 years',
      `${labels.product.originalPrice}:`,
      '$900',
      `${labels.product.resalePrice}:`,
      '$450',
      'Rahim Uddin',
      'Dhanmondi',
    ]) {
      expect(text).toContain(expected);
    }
    await expect.poll(() => card.getByRole('img', { name: 'Teak three-seater' }).count()).toBe(1);
    await expect.poll(() => card.getByRole('img', { name: 'Seller not verified' }).count()).toBe(1);
    expect(await card.locator('time').innerText()).toMatch(/\d/);
    expect(await card.getByRole('button', { name: `${labels.product.wish}: Teak three-seater` }).isEnabled()).toBe(true);
    expect(await card.getByRole('button', { name: `${labels.product.bookNow}: Teak three-seater` }).isEnabled()).toBe(true);
    await checkPage(page, 'home');

    // Booking as a visitor asks to sign in first, and comes back afterwards.
    await card.getByRole('button', { name: `${labels.product.bookNow}: Teak three-seater` }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === null);
  });

  it('gets Home as a page that works before the app’s code, which loads on the first tap and then acts on it', async () => {
    const seller = await createUser(market.db, { role: 'seller', name: 'Nadia Akter' });
    await createProduct(market.db, { categoryId, sellerId: seller.id }, { productName: 'Birch bookcase', advertisement: true });
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    // Everything a visitor sees is in the HTML; React and the router are not fetched yet.
    const card = page.getByTestId('product-card').filter({ hasText: 'Birch bookcase' });
    expect(await card.count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Sofas' }).count()).toBe(1);
    expect(scripts.filter((script) => script.includes('framework'))).toEqual([]);

    await card.getByRole('button', { name: `${labels.product.wish}: Birch bookcase` }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(scripts.filter((script) => script.includes('framework'))).toHaveLength(1);

    // Words typed into the search before the app has loaded are searched for.
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await page.getByRole('searchbox').fill('birch');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'birch');
  });

  it('browses the categories; a category page asks a visitor to log in', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('link', { name: `${labels.home.more} ${labels.home.moreWhat}` }).click();
    await expectPath(page, '/categories');
    await page.getByRole('heading', { name: labels.nav.categories, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Tables' }).waitFor();
    await checkPage(page, 'categories');

    await page.getByRole('link', { name: `${labels.categories.seeProducts}: Sofas` }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === `/category/${categoryId}`);
    await page.getByRole('heading', { name: texts.loginTitle }).waitFor();
  });

  it('reads the blog: four questions that open to their answers', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.blog }).click();
    await expectPath(page, '/blog');
    const questions = page.getByRole('main').locator('details summary');
    await expect.poll(() => questions.count()).toBe(4);
    const titles = (await questions.allInnerTexts()).join('\n');
    expect(titles).toMatch(/state/i);
    expect(titles).toMatch(/prototypal inheritance/i);
    expect(titles).toMatch(/unit test/i);
    expect(titles).toMatch(/Vue/);
    const answer = page.getByText(/internal link to another object/);
    expect(await answer.isVisible()).toBe(false);
    await questions.nth(1).click();
    await answer.waitFor({ state: 'visible' });
    await checkPage(page, 'blog');
  });

  it('gets the error page for an unknown route, with a way back Home', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: texts.errorTitle }).waitFor();
    await expectText(page, texts.errorSorry);
    await expectText(page, texts.errorNotFound);
    await expect.poll(() => page.getByRole('img', { name: 'A broken chair' }).count()).toBe(1);
    await checkPage(page, 'error-404');
    await page.getByRole('main').getByRole('link', { name: labels.errorPage.home }).click();
    await expectPath(page, '/');
    await page.getByRole('heading', { name: texts.furnitureCategories }).waitFor();

    // Any dashboard path asks a visitor to sign in first; its 404 shows inside the dashboard.
    await page.goto('/dashboard/no-such-page');
    await expectPath(page, '/login');
  });

  it('uses Home on a phone: one column, no sideways scrolling, navigation in a menu', async () => {
    session = await openSession(chromium.browser, market.url, { width: 390, height: 844 });
    const { page } = session;
    await page.goto('/');
    await page.getByRole('heading', { name: texts.advertisement }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await sidewaysOverflow(page)).toBe(0);
    const cards = page.getByTestId('product-card');
    const first = await cards.first().boundingBox();
    expect(first!.width).toBeGreaterThan(300);

    // The menu: opening moves focus to its first link; Tab stays in it and the page behind does not scroll.
    const toggle = page.getByLabel('Open navigation menu');
    const menu = await controlledBy(page, toggle);
    const blog = menu.getByRole('link', { name: labels.nav.blog });
    const scrollY = () => page.evaluate('window.scrollY') as Promise<number>;
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await blog.waitFor({ state: 'visible' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => isFocused(menu.getByRole('link', { name: labels.nav.home }))).toBe(true);
    // After the last link focus leaves the page for the browser's own controls (null here) and
    // comes round to the menu again: nothing behind it takes focus.
    expect(await tabStops(page, 6)).toEqual([labels.nav.categories, labels.nav.blog, null, 'Open navigation menu', labels.nav.home, labels.nav.categories]);
    await page.mouse.move(200, 600);
    await page.mouse.wheel(0, 800);
    // Time for a (smooth) scroll to happen if it were going to; below, the same wheel does scroll.
    await page.waitForTimeout(500);
    expect(await scrollY()).toBe(0);

    // Escape closes it and gives focus back to the toggle; then the same wheel scrolls the page.
    await page.keyboard.press('Escape');
    await blog.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await isFocused(toggle)).toBe(true);
    await page.mouse.wheel(0, 800);
    await expect.poll(scrollY).toBeGreaterThan(0);

    // A tap on the page outside the open menu closes it, and does nothing else. The menu listens
    // for that tap from when it has taken focus; the details element shows its links a little earlier.
    await toggle.click();
    await blog.waitFor({ state: 'visible' });
    await expect.poll(() => isFocused(menu.getByRole('link', { name: labels.nav.home }))).toBe(true);
    await page.mouse.click(200, 600);
    await blog.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(new URL(page.url()).pathname).toBe('/');

    // Opened from the keyboard, it closes once a link is followed.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await blog.waitFor({ state: 'visible' });
    await expect.poll(() => isFocused(menu.getByRole('link', { name: labels.nav.home }))).toBe(true);
    await blog.click();
    await expectPath(page, '/blog');
    await blog.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await isFocused(toggle)).toBe(true);
    await checkPage(page, 'blog-phone');

    // Widening the window past the breakpoint hides the toggle, and closes its menu with it.
    await toggle.click();
    await blog.waitFor({ state: 'visible' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.categories }).last().click();
    await expectPath(page, '/categories');
  });
});
