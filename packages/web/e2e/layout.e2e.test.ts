import { capabilityTexts, labels, searchTexts, texts } from '@furniture/contract';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, createWish, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, saveScreenshot, setupBrowser, waitForNetworkIdle, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { auditLog, users } from '../../server/src/db/schema/index.ts';
import { cutOffTables, logIn, sidewaysOverflow } from './support/ui.ts';

const socialProfile = 'https://www.facebook.com/usedfurniture.example';
const market = setupMarketplace({ socialLinks: [socialProfile] });
const chromium = setupBrowser();

const people = {
  buyer: { email: 'layout.buyer@example.com', password: DEFAULT_TEST_PASSWORD },
  seller: { email: 'layout.seller@example.com', password: DEFAULT_TEST_PASSWORD },
  admin: { email: 'layout.admin@example.com', password: DEFAULT_TEST_PASSWORD },
};

const PHONE_WIDTHS = [320, 375];
const SCREENSHOT_WIDTHS = [1280, 375, 320];

/** Rows the tests open pages of, made before the tests. */
const ids = { category: '', product: '', booking: '', seller: '' };

type Role = 'visitor' | keyof typeof people;

const routes: Record<Role, { name: string; path: () => string }[]> = {
  visitor: [
    { name: 'home', path: () => '/' },
    { name: 'categories', path: () => '/categories' },
    { name: 'blog', path: () => '/blog' },
    { name: 'login', path: () => '/login' },
    { name: 'signup', path: () => '/signup' },
    { name: 'search', path: () => '/search' },
    { name: 'product', path: () => `/product/${ids.product}` },
    { name: 'seller-profile', path: () => `/seller/${ids.seller}` },
    { name: 'not-found', path: () => '/no-such-page' },
  ],
  buyer: [
    { name: 'category', path: () => `/category/${ids.category}` },
    { name: 'dashboard-buyer', path: () => '/dashboard' },
    { name: 'my-orders', path: () => '/dashboard/myOrders' },
    { name: 'my-wishes', path: () => '/dashboard/myWishes' },
    { name: 'payment', path: () => `/dashboard/payment/${ids.booking}` },
    { name: 'messages', path: () => '/dashboard/messages' },
    { name: 'notifications', path: () => '/dashboard/notifications' },
    { name: 'settings', path: () => '/dashboard/settings' },
    { name: 'dashboard-not-found', path: () => '/dashboard/no-such-page' },
  ],
  seller: [
    { name: 'dashboard-seller', path: () => '/dashboard' },
    { name: 'my-products', path: () => '/dashboard/myProducts' },
    { name: 'add-product', path: () => '/dashboard/addProducts' },
    { name: 'edit-product', path: () => `/dashboard/editProduct/${ids.product}` },
    { name: 'seller-bookings', path: () => '/dashboard/sellerBookings' },
  ],
  admin: [
    { name: 'dashboard-admin', path: () => '/dashboard' },
    { name: 'all-buyers', path: () => '/dashboard/allBuyers' },
    { name: 'all-sellers', path: () => '/dashboard/allSellers' },
    { name: 'add-category', path: () => '/dashboard/addCategory' },
    { name: 'add-admin', path: () => '/dashboard/addAdmin' },
    { name: 'reports', path: () => '/dashboard/reports' },
    { name: 'audit', path: () => '/dashboard/audit' },
  ],
};

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const buyer = await createUser(market.db, { ...people.buyer, role: 'buyer', name: 'Nusrat Jahan Chowdhury', image });
  const seller = await createUser(market.db, { ...people.seller, role: 'seller', name: 'Mohammad Rahim Uddin', verified: true, image });
  await createUser(market.db, { ...people.admin, role: 'admin', name: 'Ada Admin' });
  await createUser(market.db, { role: 'seller', name: 'Pending Seller', email: 'a.rather.long.address.of.a.pending.seller@example.com', image });
  const sofas = await createCategory(market.db, { categoryName: 'Sofas and sectionals', description: 'Two- and three-seaters', image });
  for (const name of ['Tables', 'Beds', 'Wardrobes', 'Chairs', 'Desks', 'Shelves']) await createCategory(market.db, { categoryName: name, image });
  const refs = { categoryId: sofas.id, sellerId: seller.id };
  const teak = await createProduct(market.db, refs, {
    productName: 'Teak three-seater sofa with linen cushions',
    advertisement: true,
    originalPrice: '12000.00',
    resalePrice: '5200.00',
    productImage: image,
    location: 'Dhanmondi Road 27',
  });
  const chair = await createProduct(market.db, refs, { productName: 'Rattan armchair', advertisement: true, productImage: image });
  const sold = await createProduct(market.db, refs, { productName: 'Oak dining table', inStock: 'sold', productImage: image });
  await createWish(market.db, { buyerId: buyer.id, productId: chair.id });
  const booking = await createBooking(market.db, teak, buyer.id, { location: 'Gulshan 2 circle, by the fountain' });
  await createBooking(market.db, sold, buyer.id, { paymentStatus: 'paid' });

  Object.assign(ids, { category: sofas.id, product: teak.id, booking: booking.id, seller: seller.id });
});

/** Whether the navbar's brand and its sign-in or log-out buttons share any pixel (the error page has no navbar). */
async function brandOverlapsButtons(page: Page): Promise<boolean> {
  const navbar = page.getByRole('navigation', { name: 'Main' });
  if ((await navbar.count()) === 0) return false;
  const brand = await navbar.getByRole('link', { name: 'Used Furniture co. Ltd' }).boundingBox();
  const buttons = navbar.getByRole('button', { name: labels.nav.logOut }).or(navbar.getByRole('link', { name: labels.nav.logIn }));
  const end = await buttons.first().boundingBox();
  if (!brand || !end) throw new Error('The navbar has no brand or no sign-in button');
  return brand.x + brand.width > end.x && end.x + end.width > brand.x && brand.y + brand.height > end.y && end.y + end.height > brand.y;
}

describe.each(['visitor', 'buyer', 'seller', 'admin'] as const)('every page as a %s', (role) => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession(chromium.browser, market.url);
    if (role !== 'visitor') await logIn(session.page, people[role].email, people[role].password);
  });
  afterAll(async () => {
    expect(session.pageErrors).toEqual([]);
    await session.close();
  });

  it.each(routes[role])('$name fits phones of 320 and 375 pixels without scrolling sideways or overlapping, and cuts no table off; photographed at 1280, 375 and 320', async (route) => {
    const { page } = session;
    for (const width of SCREENSHOT_WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(route.path());
      await page.getByRole('main').waitFor();
      await waitForNetworkIdle(page);
      await saveScreenshot(page, `layout-${route.name}-${width}`);
      expect(await cutOffTables(page), `${route.path()} at ${width} px cuts a table off`).toEqual([]);
      if (PHONE_WIDTHS.includes(width)) {
        expect(await sidewaysOverflow(page), `${route.path()} at ${width} px scrolls sideways`).toBe(0);
        expect(await brandOverlapsButtons(page), `${route.path()} at ${width} px: the brand overlaps the buttons`).toBe(false);
      }
    }
  });
});

describe('first paint, titles and focus', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession(chromium.browser, market.url);
  });
  afterAll(async () => {
    expect(session.pageErrors).toEqual([]);
    await session.close();
  });

  it('shows Home, whose search works as a form, and elsewhere a loader, from the HTML itself, before any script runs', async () => {
    const context = await chromium.browser.newContext({ baseURL: market.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
      // Home is a whole page: its search is a form that goes to the search page.
      await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('sofa');
      await page.getByRole('searchbox', { name: searchTexts.searchLabel }).press('Enter');
      await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'sofa');
      // A page the app renders in the browser shows its loader until then.
      await page.goto('/forgot-password');
      expect(await page.getByRole('status', { name: 'Loading' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('gives every page its own title, and public pages their own description', async () => {
    const { page } = session;
    const titles = new Map<string, string>();
    const descriptions = new Set<string>();
    for (const route of routes.visitor) {
      await page.goto(route.path());
      await page.getByRole('main').waitFor();
      await waitForNetworkIdle(page);
      titles.set(route.name, await page.title());
      if (['home', 'categories', 'blog', 'search'].includes(route.name)) {
        descriptions.add(await page.locator('meta[name="description"]').getAttribute('content') ?? '');
      }
    }
    expect(titles.get('product')).toContain('Teak three-seater sofa with linen cushions');
    expect(new Set(titles.values()).size, JSON.stringify([...titles])).toBe(titles.size);
    expect(descriptions.size).toBe(4);
  });

  it('links the footer to the marketplace’s own social profiles only', async () => {
    const { page } = session;
    await page.goto('/');
    const social = page.getByRole('navigation', { name: 'Social media' });
    await social.getByRole('link', { name: 'Facebook' }).waitFor();
    expect(await social.getByRole('link').count()).toBe(1);
    expect(await social.getByRole('link', { name: 'Facebook' }).getAttribute('href')).toBe(socialProfile);
  });

  it('writes prices with thousands separators', async () => {
    const { page } = session;
    await page.goto(`/product/${ids.product}`);
    await page.getByText('$12,000', { exact: true }).first().waitFor();
    await page.getByText('$5,200', { exact: true }).first().waitFor();
  });

  it('rings the navbar link that has keyboard focus', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const categories = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.categories });
    await categories.waitFor();
    await categories.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await categories.evaluate((node) => {
      const style = (globalThis as unknown as { getComputedStyle(n: unknown): { outlineStyle: string; outlineWidth: string } }).getComputedStyle(node);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(outline).toBe('solid 2px');
  });
});

describe('an unknown dashboard path', () => {
  it('answers 404 and shows its message inside the dashboard, with the menu still there', async () => {
    const session = await openSession(chromium.browser, market.url);
    try {
      const { page } = session;
      await logIn(page, people.buyer.email, people.buyer.password);
      const response = await page.goto('/dashboard/no-such-page');
      expect(response?.status()).toBe(404);
      await page.getByText(texts.errorNotFound, { exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: labels.dashboardMenu.myOrders }).waitFor();
      await checkPage(page, 'dashboard-not-found');
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

describe('the dashboard home', () => {
  it.each([
    ['buyer', [`${labels.dashboardMenu.myOrders}`, '2 orders · 1 waiting for payment', '1 wish']],
    ['seller', [`${labels.dashboardMenu.myProducts}`, '3 products listed · 2 advertised']],
    ['admin', [`${labels.dashboardMenu.allSellers}`, '1 seller waiting for verification']],
  ] as const)('shows a %s what to do next, with counts', async (role, expected) => {
    const session = await openSession(chromium.browser, market.url);
    try {
      const { page } = session;
      await logIn(page, people[role].email, people[role].password);
      await page.goto('/dashboard');
      const main = page.getByRole('main');
      for (const text of expected) await main.getByText(text, { exact: true }).waitFor();
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

describe('toasts on a phone', () => {
  it('sit over the navbar’s top row, covering neither the search box nor the page’s heading', async () => {
    const session = await openSession(chromium.browser, market.url, { width: 375, height: 800 });
    try {
      const { page } = session;
      await logIn(page, people.buyer.email, people.buyer.password);
      await page.goto('/dashboard/myProducts');
      const toast = page.getByText(capabilityTexts.pageFor.sell, { exact: true });
      await toast.waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const toastBox = (await toast.boundingBox())!;
      for (const covered of [page.getByRole('searchbox').first(), page.getByRole('heading', { level: 1 }).first()]) {
        const box = (await covered.boundingBox())!;
        expect(toastBox.y + toastBox.height, 'the toast’s bottom edge').toBeLessThanOrEqual(box.y);
      }
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

/**
 * How far the furthest visible element inside the page's main part reaches past the viewport's
 * right edge (0 when none does). Visually hidden elements (clipped to nothing) are not seen.
 */
const reachPastViewport = (page: Page): Promise<number> =>
  page.evaluate(`(() => {
    const clipped = (element) => element && (getComputedStyle(element).clipPath !== 'none' || clipped(element.parentElement));
    let reach = 0;
    for (const element of document.querySelectorAll('main *')) {
      if (!clipped(element)) reach = Math.max(reach, element.getBoundingClientRect().right - window.innerWidth);
    }
    return Math.ceil(reach);
  })()`) as Promise<number>;

describe('the audit log on a phone', () => {
  it('shows each entry as a card, with nothing wider than the screen', async () => {
    const [admin] = await market.db.select().from(users).where(eq(users.email, people.admin.email));
    await market.db.insert(auditLog).values({
      actorId: admin!.id,
      actorEmail: admin!.email,
      action: 'user.verify',
      targetType: 'user',
      targetId: admin!.id,
      targetLabel: 'a.rather.long.address.of.a.pending.seller@example.com',
      address: '2001:db8:85a3:0000:0000:8a2e:0370:7334',
    });
    const session = await openSession(chromium.browser, market.url, { width: 375, height: 800 });
    try {
      const { page } = session;
      await logIn(page, people.admin.email, people.admin.password);
      await page.goto('/dashboard/audit');
      await page.getByRole('cell', { name: 'a.rather.long.address.of.a.pending.seller@example.com' }).waitFor();
      await saveScreenshot(page, 'layout-audit-cards-375');
      expect(await reachPastViewport(page), 'an element reaches past the screen’s right edge').toBe(0);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

describe('search results on a phone', () => {
  it('are two columns of compact cards with their price, place and actions, several to a screen', async () => {
    const session = await openSession(chromium.browser, market.url, { width: 375, height: 740 });
    try {
      const { page } = session;
      await page.goto('/search');
      const cards = page.getByTestId('product-card');
      await cards.nth(1).waitFor();
      await saveScreenshot(page, 'layout-search-cards-375');
      const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
      expect(Math.abs(first!.y - second!.y)).toBeLessThan(1);
      expect(second!.x).toBeGreaterThan(first!.x + first!.width);
      // A row of two pieces takes less than three quarters of the screen's height (one piece took a screen).
      expect(first!.height).toBeLessThan(740 * 0.75);
      // The price and the place show; the other details give way.
      expect(await cards.nth(0).locator('dd').filter({ visible: true }).allInnerTexts()).toEqual([expect.stringMatching(/^\$[\d,]+$/), expect.any(String)]);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
