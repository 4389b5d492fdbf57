import { conversationTexts, labels, texts, uiTexts } from '@furniture/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, createWish, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

const buyer = { email: 'marks.buyer@example.com', password: DEFAULT_TEST_PASSWORD };
let categoryId: string;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const me = await createUser(market.db, { ...buyer, role: 'buyer', name: 'Mark Buyer' });
  const seller = await createUser(market.db, { role: 'seller', verified: true, image });
  const category = await createCategory(market.db, { categoryName: 'Benches', image });
  categoryId = category.id;
  const refs = { categoryId, sellerId: seller.id };
  const wished = await createProduct(market.db, refs, { productName: 'Wished bench', productImage: image });
  const booked = await createProduct(market.db, refs, { productName: 'Booked bench', productImage: image });
  await createProduct(market.db, refs, { productName: 'Fresh bench', productImage: image });
  await createWish(market.db, { buyerId: me.id, productId: wished.id });
  await createBooking(market.db, booked, me.id);
  session = await openSession(chromium.browser, market.url);
  await logIn(session.page, buyer.email, buyer.password);
});

afterAll(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

const card = (name: string) => session.page.getByTestId('product-card').filter({ hasText: name });

describe('a buyer’s product cards', () => {
  it('show Wished and Booked on what the buyer already wished for and booked, and do not offer those actions again', async () => {
    const { page } = session;
    await page.goto(`/category/${categoryId}`);
    await page.getByRole('heading', { name: texts.availableProducts }).waitFor();

    await card('Wished bench').getByText(uiTexts.productMarks.wished, { exact: true }).waitFor();
    expect(await card('Wished bench').getByRole('button', { name: `${labels.product.wish}: Wished bench` }).count()).toBe(0);
    await card('Wished bench').getByRole('button', { name: `${labels.product.bookNow}: Wished bench` }).waitFor();

    // A booked piece offers neither Wish nor Book Now, only a message to its seller.
    await card('Booked bench').getByText(uiTexts.productMarks.booked, { exact: true }).waitFor();
    expect(await card('Booked bench').getByRole('button').allTextContents()).toEqual([conversationTexts.messageSeller]);

    await card('Fresh bench').getByRole('button', { name: `${labels.product.wish}: Fresh bench` }).waitFor();
    await checkPage(page, 'category-with-marks');
  });

  it('turn Wish into Wished once the wish is added', async () => {
    const { page } = session;
    await card('Fresh bench').getByRole('button', { name: `${labels.product.wish}: Fresh bench` }).click();
    await expectText(page, 'Fresh bench is added to your wish list');
    await card('Fresh bench').getByText(uiTexts.productMarks.wished, { exact: true }).waitFor();
    expect(await card('Fresh bench').getByRole('button', { name: `${labels.product.wish}: Fresh bench` }).count()).toBe(0);
  });

  it('show at once that Book Now was pressed while the booking form’s code is still on its way', async () => {
    const { page } = session;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/booking-modal-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const bookNow = card('Fresh bench').getByRole('button', { name: `${labels.product.bookNow}: Fresh bench` });
    await bookNow.click();
    await expect.poll(() => bookNow.getAttribute('aria-busy')).toBe('true');
    expect(await bookNow.isDisabled()).toBe(true);
    release();
    await page.getByRole('dialog', { name: texts.bookingTitle }).waitFor();
    await expect.poll(() => bookNow.getAttribute('aria-busy')).toBe('false');
    await page.unroute(/\/assets\/booking-modal-[^/]+\.js$/);
  });
});
