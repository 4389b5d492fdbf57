import { FIRST_ANSWERS_ELEMENT_ID, labels, reviewTexts, texts, trustWebTexts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { blogPosts } from '../src/features/blog/components/blog-posts.ts';
import { openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectSignedIn, logIn, signUp, submitLogin } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const phone = { width: 375, height: 800 };
const buyerEmail = 'pages-buyer@example.com';
const unknownId = '00000000-0000-4000-8000-000000000000';
let session: Session;
/** What the page logged as an error: React reports a failed hydration there. */
let consoleErrors: string[];
let sellerId: string;
let lampsId: string;

beforeAll(async () => {
  const image = (name: string) => `${market.url}/demo/${name}.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Shirin Sultana', verified: true, image: null });
  sellerId = seller.id;
  await createUser(market.db, { role: 'buyer', name: 'Pages Buyer', email: buyerEmail });
  const lamps = await createCategory(market.db, { categoryName: 'Lamps', description: 'Floor and desk lamps', image: image('chair-1') });
  lampsId = lamps.id;
  await createCategory(market.db, { categoryName: 'Wardrobes', image: image('sofa-1') });
  await createProduct(market.db, { categoryId: lamps.id, sellerId: seller.id }, { productName: 'Brass floor lamp', resalePrice: '85.00', photos: [image('chair-1')] });
});

async function open(viewport = phone) {
  session = await openSession(chromium.browser, market.url, viewport, 'Asia/Dhaka');
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

/** #root of the page as served, from its opening tag on; empty when the server did not render it. */
async function servedRoot(path: string) {
  const response = await fetch(`${market.url}${path}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const start = html.indexOf('<div id="root" data-server-rendered');
  return { html: start === -1 ? '' : html.slice(start), whole: html };
}

/** Whether React has taken over an element: hydration keeps the server's elements and marks them. */
const hydrated = (page: Session['page'], selector: string) =>
  page.evaluate(`Object.keys(document.querySelector(${JSON.stringify(selector)}) ?? {}).some((key) => key.startsWith('__reactFiber$'))`);

describe('public pages rendered by the server', () => {
  it('hold their content in their HTML, before any script', async () => {
    await open();
    const categories = await servedRoot('/categories');
    expect(categories.html).toMatch(/<h1 id="categories-title"[^>]*>Categories<\/h1>/);
    expect(categories.html).toContain('Lamps');
    expect(categories.html).toContain('Floor and desk lamps');
    expect(categories.html).toContain(`href="/category/${lampsId}"`);

    const blog = await servedRoot('/blog');
    for (const post of blogPosts) expect(blog.html).toContain(post.question.replace(/'/g, '&#x27;'));

    const login = await servedRoot('/login');
    expect(login.html).toContain(texts.loginTitle);
    expect(login.html).toContain(labels.login.email);
    expect(login.html).toContain(labels.login.signIn);
    // Typed in before the app runs, the password is never sent in the address.
    expect(login.html).toMatch(/<form [^>]*method="post"/);

    const signup = await servedRoot('/signup');
    expect(signup.html).toContain(texts.signupTitle);
    expect(signup.html).toContain(labels.signup.photo);

    const seller = await servedRoot(`/seller/${sellerId}`);
    expect(seller.html).toMatch(/<h1 id="seller-name"[^>]*>Shirin Sultana/);
    expect(seller.html).toContain(trustWebTexts.listingsTitle);
    expect(seller.html).toContain('Brass floor lamp');
    const answers = JSON.parse(new RegExp(`id="${FIRST_ANSWERS_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(seller.whole)![1]!) as Record<string, unknown>;
    expect(Object.keys(answers).sort()).toEqual(['/api/allCategories', '/api/config', `/api/sellers/${sellerId}`]);

    // A category's products need signing in: its shell comes rendered, the app starting at once.
    const category = await servedRoot(`/category/${lampsId}`);
    expect(category.html).toMatch(/^<div id="root" data-server-rendered data-shell-rendered>/);
    expect(category.html).toContain(texts.availableProducts);
    expect(category.html).toContain('Lamps');
    expect(category.html).not.toContain('Brass floor lamp');
  });

  it('show their content without JavaScript', async () => {
    await open();
    const context = await chromium.browser.newContext({ baseURL: market.url, javaScriptEnabled: false, viewport: phone });
    try {
      const page = await context.newPage();
      await page.goto('/categories');
      await page.getByRole('heading', { name: 'Lamps' }).waitFor();
      await page.goto(`/seller/${sellerId}`);
      await page.getByRole('link', { name: 'Brass floor lamp' }).first().waitFor();
      await page.goto('/blog');
      await page.getByText(blogPosts[0]!.question).click();
      await page.getByText(blogPosts[0]!.answer[0]!).waitFor();
    } finally {
      await context.close();
    }
  });

  it.each(['/categories', '/blog', '/signup', `/seller/{seller}`])('%s is hydrated on the first key press, keeping its elements, with no error', async (path) => {
    const page = await open();
    await page.goto(path.replace('{seller}', sellerId));
    await page.locator('h1').waitFor();
    expect(await hydrated(page, 'h1')).toBe(false);
    await page.evaluate(`window.serverHeading = document.querySelector('h1')`);
    await page.keyboard.press('Shift');
    await expect.poll(() => hydrated(page, 'h1')).toBe(true);
    expect(await page.evaluate(`window.serverHeading === document.querySelector('h1')`)).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  it('signs in from the login page as served, what was typed before the app ran kept', async () => {
    const page = await open();
    await page.goto('/login');
    await submitLogin(page, buyerEmail, DEFAULT_TEST_PASSWORD);
    await expectSignedIn(page);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(consoleErrors).toEqual([]);
  });

  it('signs up from the signup page as served, the role picked before the app ran kept', async () => {
    const page = await open();
    await signUp(page, { name: 'Early Bird', email: 'early-bird@example.com', password: DEFAULT_TEST_PASSWORD, role: 'seller' });
    expect(consoleErrors).toEqual([]);
  });

  it('shows a signed-in buyer a category’s products over its shell, without waiting for a tap', async () => {
    const page = await open();
    await logIn(page, buyerEmail, DEFAULT_TEST_PASSWORD);
    await page.goto(`/category/${lampsId}`);
    await page.getByRole('heading', { name: texts.availableProducts, level: 1 }).waitFor();
    await page.getByTestId('product-card').filter({ hasText: 'Brass floor lamp' }).waitFor();
    expect(await hydrated(page, 'h1')).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  it('sends a visitor from a category’s page to the login page as the server renders it, without loading the app first', async () => {
    const page = await open();
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
    });
    await page.goto(`/category/${lampsId}`);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === `/category/${lampsId}`);
    await page.getByRole('heading', { name: texts.loginTitle }).waitFor();
    expect(documents).toEqual([`/category/${lampsId}`, '/login']);
    expect(consoleErrors).toEqual([]);
  });

  it.each([`/seller/${unknownId}`, '/seller/not-an-id', `/category/${unknownId}`, '/category/not-an-id'])(
    'answers %s, which names nothing, with 404 and the app',
    async (path) => {
      await open();
      const response = await fetch(`${market.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('data-server-rendered');
    },
  );

  it('tells a visitor of an unknown seller’s page so', async () => {
    const page = await open();
    const response = await page.goto(`/seller/${unknownId}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('alert').filter({ hasText: reviewTexts.sellerNotFound }).waitFor();
  });
});
