import { labels, productPageTexts, texts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const phone = { width: 375, height: 800 };
const buyerEmail = 'page-buyer@example.com';
let session: Session;
/** What the page logged as an error: React reports a failed hydration there. */
let consoleErrors: string[];
let armchairId: string;
let uploadedId: string;
const uploadedPhoto = '/uploads/0b6f3a52-5d0e-4d6c-9a51-2f0c5e8e7a11.webp';

beforeAll(async () => {
  const image = (name: string) => `${market.url}/demo/${name}.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Rafiq Hasan', verified: true });
  await createUser(market.db, { role: 'buyer', name: 'Page Buyer', email: buyerEmail });
  const chairs = await createCategory(market.db, { categoryName: 'Armchairs', image: image('armchair-1') });
  const armchair = await createProduct(
    market.db,
    { categoryId: chairs.id, sellerId: seller.id },
    {
      productName: 'Wingback armchair',
      description: 'Mustard wool, firm seat',
      condition: 'Excellent',
      resalePrice: '1250.00',
      photos: [image('armchair-1'), image('armchair-2')],
      measurements: { widthCm: 80, depthCm: 85, heightCm: 110 },
    },
  );
  armchairId = armchair.id;
  await createProduct(market.db, { categoryId: chairs.id, sellerId: seller.id }, { productName: 'Club armchair', resalePrice: '900.00', photos: [image('armchair-2')] });
  uploadedId = (
    await createProduct(market.db, { categoryId: chairs.id, sellerId: seller.id }, { productName: 'Uploaded armchair', resalePrice: '480.00', photos: [`${market.url}${uploadedPhoto}`] })
  ).id;
});

async function open(viewport?: { width: number; height: number }, timezoneId?: string) {
  session = await openSession(chromium.browser, market.url, viewport, timezoneId);
  consoleErrors = [];
  session.page.on('console', (message) => {
    // Pictures the test's users and products point to that do not exist are not the page's errors.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
  });
  return session.page;
}

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

describe('a product’s page rendered by the server', () => {
  it('holds the product’s name, price, first photo and actions in its HTML, before any script', async () => {
    await open();
    const response = await fetch(`${market.url}/product/${uploadedId}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const root = html.slice(html.indexOf('<div id="root" data-server-rendered>'));
    expect(root).not.toBe(html);
    expect(root).toMatch(/<h1 id="product-title"[^>]*>Uploaded armchair<\/h1>/);
    expect(root).toContain('$480');
    // The gallery's first photo, in both stored widths, sized before it loads and fetched first.
    const photo = /<img [^>]*src="[^"]*\/uploads\/[^"]+\.webp"[^>]*>/.exec(root)?.[0] ?? '';
    expect(photo).toContain(`src="${market.url}${uploadedPhoto}"`);
    expect(photo).toContain(`srcSet="${market.url}${uploadedPhoto.replace('.webp', '.thumb.webp')} 400w, ${market.url}${uploadedPhoto} 1600w"`);
    expect(photo).toContain('sizes="(min-width: 1024px) 600px, 100vw"');
    expect(photo).toContain('width="800"');
    expect(photo).toContain('height="600"');
    expect(root).toContain(`aria-label="${labels.product.wish}: Uploaded armchair"`);
    expect(root).toContain(`aria-label="${labels.product.bookNow}: Uploaded armchair"`);
    expect(root).toContain(productPageTexts.share);
  });

  it('shows the whole page without JavaScript', async () => {
    await open();
    const context = await chromium.browser.newContext({ baseURL: market.url, javaScriptEnabled: false, viewport: phone });
    try {
      const page = await context.newPage();
      await page.goto(`/product/${armchairId}`);
      await page.getByRole('heading', { name: 'Wingback armchair', level: 1 }).waitFor();
      expect(await page.getByTestId('measurements').innerText()).toBe('80 × 85 × 110 cm (W × D × H)');
      await page.getByRole('heading', { name: productPageTexts.similar }).waitFor();
      expect(await page.getByRole('link', { name: 'Club armchair' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('acts on the first tap on Wish or Book Now on a phone, which loads the app', async () => {
    const page = await open(phone);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    for (const action of [labels.product.wish, labels.product.bookNow]) {
      scripts.length = 0;
      await page.goto(`/product/${armchairId}`);
      await page.waitForLoadState('networkidle');
      expect(scripts.filter((script) => script.includes('framework')), action).toEqual([]);
      // A visitor who wishes or books is asked to log in.
      await page.getByRole('button', { name: `${action}: Wingback armchair` }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      expect(scripts.filter((script) => script.includes('framework')), action).toHaveLength(1);
    }
    expect(consoleErrors).toEqual([]);
  });

  it('keeps the server’s elements when the app hydrates, and its gallery then works', async () => {
    const page = await open(phone);
    await page.goto(`/product/${armchairId}`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(`window.serverElements = [document.querySelector('h1'), document.querySelector('[data-testid="gallery"] img')]`);
    const gallery = page.getByTestId('gallery');
    // The first tap loads the app; the held click then shows the next photo.
    await page.getByRole('button', { name: productPageTexts.nextPhoto }).click();
    await expect.poll(() => gallery.getAttribute('aria-label')).toBe(`Wingback armchair: ${productPageTexts.photoOf(2, 2)}`);
    expect(
      await page.evaluate(`window.serverElements[0] === document.querySelector('h1') && window.serverElements[1] === document.querySelector('[data-testid="gallery"] img')`),
    ).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  it('is hydrated for a reader in another time zone than the server’s, then shows its dates in theirs', async () => {
    const page = await open(phone, 'Asia/Dhaka');
    await page.goto(`/product/${armchairId}`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(`window.serverElements = [document.querySelector('h1'), document.querySelector('[data-testid="gallery"] img')]`);
    const posted = page.getByRole('main').locator('dl time').first();
    const postedAt = (await posted.getAttribute('datetime'))!;
    const inZone = (timeZone: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(postedAt));
    // The server writes dates in UTC, whatever its own zone, and the app hydrates with the same words.
    expect(await posted.innerText()).toBe(inZone('UTC'));
    await page.getByRole('button', { name: productPageTexts.nextPhoto }).click();
    await expect.poll(() => posted.innerText()).toBe(inZone('Asia/Dhaka'));
    expect(
      await page.evaluate(`window.serverElements[0] === document.querySelector('h1') && window.serverElements[1] === document.querySelector('[data-testid="gallery"] img')`),
    ).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  it('lets a signed-in buyer book with the first tap on a phone, held until the app knows who they are', async () => {
    const page = await open(phone);
    await logIn(page, buyerEmail, DEFAULT_TEST_PASSWORD);
    // The session's answer waits until the page has hydrated (as nobody's) and its effects have run.
    let answerSession = () => undefined as void;
    const sessionAnswered = new Promise<void>((resolve) => (answerSession = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await sessionAnswered;
      await route.continue();
    });
    await page.goto(`/product/${armchairId}`);
    // No waiting for the app: a tap made before it handles events is held until it does.
    const bookNow = page.getByRole('button', { name: `${labels.product.bookNow}: Wingback armchair` });
    await bookNow.click();
    await bookNow.evaluate(`(button) => new Promise((resolve) => {
      const hydrated = () => Object.keys(button).some((key) => key.startsWith('__reactProps$'));
      const check = () => (hydrated() ? requestAnimationFrame(() => setTimeout(resolve)) : requestAnimationFrame(check));
      check();
    })`);
    answerSession();
    await page.getByRole('dialog', { name: texts.bookingTitle }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/product/${armchairId}`);
    expect(consoleErrors).toEqual([]);
  });

  it('still answers an unknown product with 404 and the error page', async () => {
    const page = await open(phone);
    const response = await page.goto('/product/00000000-0000-4000-8000-000000000000');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: texts.errorTitle }).waitFor();
    await expectText(page, texts.errorNotFound);
  });
});
