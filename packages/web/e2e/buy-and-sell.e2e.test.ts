import { addProductTexts, capabilityTexts, labels, serverMessages } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { products } from '../../server/src/db/schema/index.ts';
import { makeAdmin } from '../../server/src/admin/admin-repository.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectSignedIn, expectText, logIn, photo } from './support/ui.ts';

/** One account buys and sells (decision 37). */
const market = setupMarketplace();
const chromium = setupBrowser();
const openSession = setupSessions(chromium, market);
let categoryId: string;

beforeAll(async () => {
  categoryId = (await createCategory(market.db, { categoryName: 'Shelves', image: `${market.url}/favicon.svg` })).id;
});

const piece = async (sellerId: string, productName: string) => createProduct(market.db, { categoryId, sellerId }, { productName });

describe('one account buys and sells', () => {
  it('lets a buyer start selling from the dashboard and list a piece, keeping the buyer’s menu', { timeout: 120_000 }, async () => {
    const buyer = await createUser(market.db, { role: 'buyer', name: 'Rafi Buyer' });
    const { page, pageErrors } = await openSession();
    await logIn(page, buyer.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: labels.dashboardMenu.myOrders }).waitFor();
    expect(await menu.getByRole('link', { name: labels.dashboardMenu.addProduct }).count()).toBe(0);
    await checkPage(page, 'dashboard-start-selling');

    await page.getByRole('button', { name: capabilityTexts.startSelling.action }).click();
    await expectText(page, capabilityTexts.startSelling.started);
    await expectPath(page, '/dashboard/addProducts');
    for (const link of [labels.dashboardMenu.myProducts, labels.dashboardMenu.addProduct, labels.dashboardMenu.myOrders, labels.dashboardMenu.myWishes]) {
      await menu.getByRole('link', { name: link, exact: true }).waitFor();
    }

    await page.getByLabel('Product Category').selectOption({ label: 'Shelves' });
    await page.getByLabel('Condition').selectOption('Good');
    await page.getByLabel('Product Name').fill('Teak bookshelf');
    await page.getByLabel('Years of Use').fill('3 years');
    await page.getByLabel(`${labels.product.originalPrice} ($)`).fill('400');
    await page.getByLabel(`${labels.product.resalePrice} ($)`).fill('180');
    await page.getByLabel('Description').fill('Five shelves, no scratches');
    await page.getByLabel('Phone').fill('01711223344');
    await page.getByLabel('Location').fill('Banani');
    await page.getByLabel(addProductTexts.addPhotos).setInputFiles([await photo('shelf.jpg')]);
    await page.getByRole('button', { name: labels.dashboardMenu.addProduct }).click();
    await expectText(page, 'Teak bookshelf is listed');
    await expectPath(page, '/dashboard/myProducts');
    const [listed] = await market.db.select().from(products).where(eq(products.productName, 'Teak bookshelf'));
    expect(listed!.sellerId).toBe(buyer.id);

    // Still a buyer: the orders page opens.
    await menu.getByRole('link', { name: labels.dashboardMenu.myOrders }).click();
    await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('takes an admin who bought to her paid order, with both menus', async () => {
    const seller = await createUser(market.db, { role: 'seller' });
    const buyer = await createUser(market.db, { role: 'buyer', name: 'Nadia Admin' });
    await createBooking(market.db, await piece(seller.id, 'Paid oak dresser'), buyer.id, { paymentStatus: 'paid' });
    await makeAdmin(market.db, buyer.id);

    const { page, pageErrors } = await openSession();
    await logIn(page, buyer.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/myOrders');
    await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Paid oak dresser' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/myOrders');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: labels.dashboardMenu.allSellers }).waitFor();
    await menu.getByRole('link', { name: labels.dashboardMenu.myOrders }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});

describe('the actions on a listing', () => {
  it('lets a seller wish for another seller’s piece, and shows no Wish or Book Now on their own', async () => {
    const seller = await createUser(market.db, { role: 'seller' });
    const other = await createUser(market.db, { role: 'seller' });
    const own = await piece(seller.id, 'Own pine stool');
    const theirs = await piece(other.id, 'Their birch stool');
    const { page, pageErrors } = await openSession();
    await logIn(page, seller.email, DEFAULT_TEST_PASSWORD);

    await page.goto(`/product/${theirs.id}`);
    await page.getByRole('button', { name: `${labels.product.bookNow}: Their birch stool` }).waitFor();
    await page.getByRole('button', { name: `${labels.product.wish}: Their birch stool` }).click();
    await expectText(page, serverMessages.wishes.added('Their birch stool'));

    await page.goto(`/product/${own.id}`);
    await page.getByRole('heading', { name: 'Own pine stool' }).waitFor();
    await expectSignedIn(page);
    await expect.poll(() => page.getByRole('button', { name: `${labels.product.bookNow}: Own pine stool` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `${labels.product.wish}: Own pine stool` }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('shows an admin who does not buy no Wish or Book Now', async () => {
    const seller = await createUser(market.db, { role: 'seller' });
    const admin = await createUser(market.db, { role: 'admin' });
    const listed = await piece(seller.id, 'Maple side table');
    const { page, pageErrors } = await openSession();
    await logIn(page, admin.email, DEFAULT_TEST_PASSWORD);
    await page.goto(`/product/${listed.id}`);
    await page.getByRole('heading', { name: 'Maple side table' }).waitFor();
    await expectSignedIn(page);
    await expect.poll(() => page.getByRole('button', { name: `${labels.product.bookNow}: Maple side table` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `${labels.product.wish}: Maple side table` }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
