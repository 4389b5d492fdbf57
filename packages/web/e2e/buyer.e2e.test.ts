import { accountTexts, labels, messages, saleTexts, texts, uiTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, createWish, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { users } from '../../server/src/db/schema/index.ts';
import { mailedLink } from './support/mail.ts';
import { checkPage, openSession, setupBrowser, waitForNetworkIdle, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { confirmDelete, expectPath, expectText, isFocused, isRed, logIn, signUp, textColor } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

const buyer = { name: 'Nadia Buyer', email: 'nadia.buyer@example.com', password: 'Secret123', role: 'buyer' as const };
const otherBuyer = { email: 'other.buyer@example.com', password: DEFAULT_TEST_PASSWORD };
const table = 'Walnut dining table';
let categoryId: string;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const category = await createCategory(market.db, { categoryName: 'Tables', description: 'Dining and coffee tables', image });
  categoryId = category.id;
  const seller = await createUser(market.db, { role: 'seller', name: 'Salma Seller' });
  const someoneElse = await createUser(market.db, { ...otherBuyer, role: 'buyer' });
  const walnut = await createProduct(
    market.db,
    { categoryId, sellerId: seller.id },
    { productName: table, resalePrice: '250.00', originalPrice: '600.00', advertisement: true, productImage: image },
  );
  await createProduct(market.db, { categoryId, sellerId: seller.id }, { productName: 'Glass coffee table', productImage: image });
  await createWish(market.db, { buyerId: someoneElse.id, productId: walnut.id });
});

afterAll(async () => {
  await session?.close();
});

const card = () => session.page.getByTestId('product-card').filter({ hasText: table });

// One buyer's journey: each step starts where the previous one left the browser.
describe('a buyer', () => {
  it('signs up as a buyer and sees the buyer menu', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await signUp(page, buyer);
    // Paying needs a verified e-mail.
    await page.goto(await mailedLink(market, buyer.email, accountTexts.mail.verifySubject, '/verify-email'));
    await expectText(page, accountTexts.verify.done);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: texts.welcomeOther }).waitFor();
    expect(await page.getByTestId('profile-header').innerText()).toContain(`${buyer.name} (buyer)`);
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: labels.dashboardMenu.myOrders }).waitFor();
    await menu.getByRole('link', { name: labels.dashboardMenu.myWishes }).waitFor();
    expect(await menu.getByRole('link', { name: labels.dashboardMenu.myProducts }).count()).toBe(0);
    await checkPage(page, 'dashboard-buyer');
  });

  it('opens a category, and the booking modal opens on Book Now and closes on Cancel', async () => {
    const { page } = session;
    await page.goto('/categories');
    await page.getByRole('link', { name: `${labels.categories.seeProducts}: Tables` }).click();
    await expectPath(page, `/category/${categoryId}`);
    await page.getByRole('heading', { name: texts.availableProducts }).waitFor();
    await card().waitFor();
    await checkPage(page, 'category');

    const heading = page.getByRole('heading', { name: texts.availableProducts });
    const headingBefore = await heading.boundingBox();
    await card().getByRole('button', { name: `${labels.product.bookNow}: ${table}` }).click();
    const modal = page.getByRole('dialog', { name: texts.bookingTitle });
    await modal.waitFor();
    // Focus starts on the first field to fill, and the page behind holds still.
    await expect.poll(() => isFocused(modal.getByLabel(labels.booking.phoneNumber))).toBe(true);
    expect(await heading.boundingBox()).toEqual(headingBefore);
    expect(await modal.getByLabel(labels.booking.buyerName).inputValue()).toBe(buyer.name);
    expect(await modal.getByLabel(labels.booking.buyerEmail).inputValue()).toBe(buyer.email);
    expect(await modal.getByLabel(labels.booking.productName).inputValue()).toBe(table);
    expect(await modal.getByLabel(labels.booking.productPrice).inputValue()).toBe('$250');
    for (const field of [labels.booking.buyerName, labels.booking.buyerEmail, labels.booking.productName, labels.booking.productPrice]) {
      expect(await modal.getByLabel(field).getAttribute('readonly')).not.toBeNull();
    }
    await modal.getByRole('button', { name: labels.booking.confirm }).click();
    await modal.getByText('Phone number is required', { exact: true }).waitFor();
    await modal.getByText('Location is required', { exact: true }).waitFor();
    // The modal covers the viewport, so the screenshot shows what the buyer sees.
    await checkPage(page, 'booking-modal', { fullPage: false });
    await modal.getByRole('button', { name: labels.booking.cancel }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(session.pageErrors).toEqual([]);
  });

  it('wishes the product and finds it in My Wishes', async () => {
    const { page } = session;
    await card().getByRole('button', { name: `${labels.product.wish}: ${table}` }).click();
    await expectText(page, `${table} is added to your wish list`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.dashboard }).first().click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: labels.dashboardMenu.myWishes }).click();
    await expectPath(page, '/dashboard/myWishes');
    await page.getByRole('heading', { name: texts.wishListTitle }).waitFor();
    await page.getByRole('row').filter({ hasText: table }).waitFor();
    await checkPage(page, 'dashboard-my-wishes');
  });

  it('deletes another wish from My Wishes', async () => {
    const { page } = session;
    const [me] = await market.db.select().from(users).where(eq(users.email, buyer.email));
    const coffee = await market.db.query.products.findFirst({ where: (product, { eq: is }) => is(product.productName, 'Glass coffee table') });
    await createWish(market.db, { buyerId: me!.id, productId: coffee!.id });
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Glass coffee table' });
    const remove = row.getByRole('button', { name: `${labels.table.delete} Glass coffee table` });

    // The first Delete only asks, naming the piece; Keep it (where focus starts) keeps it.
    await remove.click();
    const dialog = page.getByRole('dialog', { name: uiTexts.confirmDelete.title('Glass coffee table') });
    await dialog.waitFor();
    await expect.poll(() => isFocused(dialog.getByRole('button', { name: uiTexts.confirmDelete.cancel }))).toBe(true);
    await checkPage(page, 'confirm-delete-wish', { fullPage: false });
    await dialog.getByRole('button', { name: uiTexts.confirmDelete.cancel }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);

    await remove.click();
    await confirmDelete(page, 'Glass coffee table');
    await expectText(page, messages.productDeleted);
    await row.waitFor({ state: 'detached' });
  });

  it('orders the product from My Wishes: the wish goes and My Orders opens with the order', async () => {
    const { page } = session;
    const row = page.getByRole('row').filter({ hasText: table });
    await row.getByRole('button', { name: `${labels.table.order}: ${table}` }).click();
    const modal = page.getByRole('dialog', { name: texts.bookingTitle });
    await modal.waitFor();
    await modal.getByLabel(labels.booking.phoneNumber).fill('01712345678');
    await modal.getByLabel(labels.booking.meetingLocation).fill('Gulshan 2 circle');
    await modal.getByRole('button', { name: labels.booking.confirm }).click();
    await expectText(page, `${table} is booked`);
    await expectPath(page, '/dashboard/myOrders');
    await modal.waitFor({ state: 'detached' });
    const order = page.getByRole('row').filter({ hasText: table });
    await order.waitFor();
    // What the buyer needs to meet the seller: where, whom (name and phone), and when they booked.
    const orderText = await order.innerText();
    for (const shown of [saleTexts.buyerStock.available, 'Gulshan 2 circle', 'Salma Seller', '01700000000']) expect(orderText).toContain(shown);
    await order.locator('time').waitFor();
    await order.getByRole('link', { name: `${labels.table.pay} for ${table}` }).waitFor();
    await checkPage(page, 'dashboard-my-orders');

    await page.goto('/dashboard/myWishes');
    // An empty list says how it would fill, and leads there.
    await page.getByText(uiTexts.emptyLists.wishes).waitFor();
    await page.getByRole('link', { name: uiTexts.emptyLists.findFurniture }).click();
    await expectPath(page, '/search');
    expect(session.pageErrors).toEqual([]);
  });

  it('deletes another order from My Orders', async () => {
    const { page } = session;
    const [me] = await market.db.select().from(users).where(eq(users.email, buyer.email));
    const coffee = await market.db.query.products.findFirst({ where: (product, { eq: is }) => is(product.productName, 'Glass coffee table') });
    await createBooking(market.db, coffee!, me!.id);
    await page.goto('/dashboard/myOrders');
    const row = page.getByRole('row').filter({ hasText: 'Glass coffee table' });
    await row.getByRole('button', { name: `${labels.table.delete} Glass coffee table` }).click();
    await confirmDelete(page, 'Glass coffee table');
    await expectText(page, messages.productDeleted);
    await row.waitFor({ state: 'detached' });
  });

  it('pays with a test card: a declined card shows the reason in red, then a good card completes the sale', async () => {
    const { page } = session;
    await page.getByRole('row').filter({ hasText: table }).getByRole('link', { name: `${labels.table.pay} for ${table}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/dashboard/payment/'));
    const pay = page.getByRole('button', { name: labels.payment.pay, exact: true });
    await expect.poll(() => pay.isEnabled()).toBe(true);

    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await pay.click();
    const declined = page.getByText('Your card was declined.', { exact: true });
    await declined.waitFor();
    expect(isRed(await textColor(declined))).toBe(true);
    await checkPage(page, 'dashboard-payment');

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.click();
    await expectText(page, messages.paymentCompleted);
    await expectText(page, 'Your payment is recorded and the product is yours.');
    expect(await page.getByTestId('transaction-id').innerText()).toMatch(/\S{6,}/);
    expect(await declined.count()).toBe(0);
    // The page now says it is paid, not what to pay, and leads back to My Orders.
    await expectText(page, 'You paid $250 for this booking.');
    expect(await page.getByText('Please pay', { exact: false }).count()).toBe(0);
    await checkPage(page, 'dashboard-payment-paid');
    // On a phone the transaction id goes under the message, not into a narrow column beside it.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: 800 });
    const completed = (await page.getByText(messages.paymentCompleted).boundingBox())!;
    const transactionId = (await page.getByTestId('transaction-id').locator('..').boundingBox())!;
    expect(transactionId.y).toBeGreaterThanOrEqual(completed.y + completed.height);
    await page.setViewportSize(viewport);

    await page.getByRole('link', { name: uiTexts.payment.backToOrders }).click();
    await expectPath(page, '/dashboard/myOrders');
    const order = page.getByRole('row').filter({ hasText: table });
    await order.getByText('paid', { exact: true }).waitFor();
    expect(await order.getByRole('link', { name: `${labels.table.pay} for ${table}` }).count()).toBe(0);
    // A paid order is kept as the record of the sale: no Delete to press in vain.
    expect(await order.getByRole('button', { name: `${labels.table.delete} ${table}` }).count()).toBe(0);
    await order.getByText(uiTexts.orders.paidKeeps).waitFor();
    expect(session.pageErrors).toEqual([]);
  });

  it('gets the error page for a booking that is not theirs', async () => {
    const { page } = session;
    await page.goto('/dashboard/payment/7f1c2a8e-1111-4222-8333-944455556666');
    await page.getByRole('heading', { name: texts.errorTitle }).waitFor();
    await expectText(page, texts.errorSorry);
    expect(await page.getByTestId('error-text').innerText()).toBe('Booking not found.');
    await page.getByRole('link', { name: labels.errorPage.home }).click();
    await expectPath(page, '/');
    expect(session.pageErrors).toEqual([]);
  });

  it('shows the product Unavailable to everyone else: in their wish lists and on the category page, and no longer advertised', async () => {
    const other = await openSession(chromium.browser, market.url);
    try {
      const { page } = other;
      await logIn(page, otherBuyer.email, otherBuyer.password);
      await page.goto('/dashboard/myWishes');
      const wished = page.getByRole('row').filter({ hasText: table });
      await wished.waitFor();
      expect(await wished.innerText()).toContain(saleTexts.listingState.sold.visitor);
      expect(await wished.getByRole('button', { name: texts.unavailable }).isDisabled()).toBe(true);
      expect(await wished.getByRole('button', { name: `${labels.table.order}: ${table}` }).count()).toBe(0);

      await page.goto(`/category/${categoryId}`);
      const coffee = page.getByTestId('product-card').filter({ hasText: 'Glass coffee table' });
      await coffee.getByRole('button', { name: `${labels.product.bookNow}: Glass coffee table` }).waitFor();
      const soldCard = page.getByTestId('product-card').filter({ hasText: table });
      expect(await soldCard.getByRole('button', { name: texts.unavailable }).isDisabled()).toBe(true);
      expect(await soldCard.getByRole('button', { name: `${labels.product.bookNow}: ${table}` }).count()).toBe(0);
      expect(await soldCard.getByRole('button', { name: `${labels.product.wish}: ${table}` }).count()).toBe(0);

      await page.goto('/');
      await page.getByRole('heading', { name: texts.furnitureCategories }).waitFor();
      await waitForNetworkIdle(page);
      expect(await page.getByTestId('product-card').filter({ hasText: table }).count()).toBe(0);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
