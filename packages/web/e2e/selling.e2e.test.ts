import { addProductTexts, labels, messages, saleMessages, saleTexts, sellerShareTexts, texts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { createBooking, createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { products, users } from '../../server/src/db/schema/index.ts';
import { fulfilPayment } from '../../server/src/payments/fulfilment.ts';
import { SimulatedPaymentProvider } from '../../server/src/payments/simulated-provider.ts';
import { checkPage, setupBrowser, setupSessions, waitForNetworkIdle, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectText, logIn, photo } from './support/ui.ts';

/**
 * A sale from the seller's side: the seller corrects a listing, sees a booking arrive, declines one
 * buyer with a reason and accepts another, who pays; the seller hands the piece over.
 */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);
let seller: Session;
let buyer: Session;

const sideboard = 'Teak sideboard';
const accounts = {
  seller: { email: 'rafi.seller@example.com', name: 'Rafi Seller' },
  buyer: { email: 'mita.buyer@example.com', name: 'Mita Buyer' },
  declined: { email: 'jamal.buyer@example.com', name: 'Jamal Buyer' },
};
const declineReason = 'Sorry, I promised it to a neighbour.';
let productId: string;
let categoryId: string;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const category = await createCategory(market.db, { categoryName: 'Storage', description: 'Sideboards and shelves', image });
  categoryId = category.id;
  const owner = await createUser(market.db, { ...accounts.seller, role: 'seller', verified: true });
  await createUser(market.db, { ...accounts.buyer, role: 'buyer' });
  const declined = await createUser(market.db, { ...accounts.declined, role: 'buyer' });
  const product = await createProduct(
    market.db,
    { categoryId: category.id, sellerId: owner.id },
    { productName: 'Teak sidebord', resalePrice: '300.00', originalPrice: '900.00', productImage: image },
  );
  productId = product.id;
  await createBooking(market.db, product, declined.id, { location: 'Banani 11' });
});



const bookingCard = (session: Session, buyerName: string) => session.page.getByRole('listitem').filter({ hasText: buyerName });
/** The names of the step buttons a booking's card or row offers (not Message, Pay's link or Something is wrong). */
const stepButtons = async (scope: Locator, steps: string[]) => {
  const offered = await Promise.all(steps.map(async (step) => ((await scope.getByRole('button', { name: new RegExp(`^${step}: `) }).count()) > 0 ? step : null)));
  return offered.filter(Boolean);
};
const buyerSteps = [saleTexts.cancel, saleTexts.received];
const sellerSteps = [saleTexts.accept, saleTexts.decline, saleTexts.handover, saleTexts.refund];
/** The product page's stock line, as a visitor reads it. */
async function stockSeenByVisitor(id: string) {
  const visitor = await open();
  await visitor.page.goto(`/product/${id}`);
  return visitor.page.getByTestId('stock').innerText();
}

describe('a seller runs a sale', () => {
  it('edits a listing in the Add Product form filled in, and lowers its price', async () => {
    seller = await open();
    const { page } = seller;
    await logIn(page, accounts.seller.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/myProducts');
    const row = page.getByRole('row').filter({ hasText: 'Teak sidebord' });
    expect(await row.innerText()).toContain(saleTexts.interestValue(0, 0, 1));
    for (const action of [saleTexts.renew, saleTexts.withdraw, saleTexts.soldElsewhere]) {
      await row.getByRole('button', { name: `${action}: Teak sidebord` }).waitFor();
    }
    await row.getByRole('link', { name: `${saleTexts.edit} Teak sidebord` }).click();
    await expectPath(page, `/dashboard/editProduct/${productId}`);
    await page.getByRole('heading', { name: saleTexts.editTitle }).waitFor();
    expect(await page.getByLabel('Product Name').inputValue()).toBe('Teak sidebord');
    expect(await page.getByLabel(`${labels.product.resalePrice} ($)`).inputValue()).toBe('300');
    // What the seller keeps after the marketplace's fee (10% by default).
    await page.getByText(sellerShareTexts.youReceive('$270.00')).waitFor();
    // The listing keeps its condition; only a new listing starts with none chosen.
    expect(await page.getByLabel('Condition').inputValue()).toBe('Good');
    // Opened afresh from its address too, the form keeps the listing's category and shows its photos.
    await page.reload();
    await page.getByRole('heading', { name: saleTexts.editTitle }).waitFor();
    expect(await page.getByLabel(addProductTexts.productCategory).inputValue()).toBe(categoryId);
    const photos = page.getByRole('list', { name: addProductTexts.photos });
    expect(await photos.getByRole('img').getAttribute('alt')).toBe(`${addProductTexts.currentPhoto(1)} (${addProductTexts.cover})`);
    await checkPage(page, 'dashboard-edit-product');

    // A second photo joins the current one, which stays the cover.
    await page.getByLabel(addProductTexts.addPhotos).setInputFiles(await photo('back.jpg'));
    await photos.getByRole('img', { name: 'back.jpg' }).waitFor();
    await page.getByLabel('Product Name').fill(sideboard);
    await page.getByLabel(`${labels.product.resalePrice} ($)`).fill('250');
    await page.getByText(sellerShareTexts.youReceive('$225.00')).waitFor();
    await page.getByRole('button', { name: saleTexts.saveChanges }).click();
    await expectText(page, saleMessages.edited(sideboard));
    await expectPath(page, '/dashboard/myProducts');
    await page.getByRole('row').filter({ hasText: sideboard }).waitFor();
    const [saved] = await market.db.select({ photos: products.photos, categoryId: products.categoryId }).from(products).where(eq(products.id, productId));
    expect(saved!.categoryId).toBe(categoryId);
    expect(saved!.photos).toHaveLength(2);
    expect(saved!.photos[0]).toBe(`${market.url}/favicon.svg`);
    expect(seller.pageErrors).toEqual([]);
  });

  it('sees a new booking arrive on Bookings on my products while the page is open', async () => {
    const { page } = seller;
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: saleTexts.sellerBookingsTitle }).click();
    await expectPath(page, '/dashboard/sellerBookings');
    await page.getByRole('heading', { name: saleTexts.sellerBookingsTitle, level: 1 }).waitFor();
    await bookingCard(seller, accounts.declined.name).waitFor();
    await waitForNetworkIdle(page);

    buyer = await open();
    await logIn(buyer.page, accounts.buyer.email, DEFAULT_TEST_PASSWORD);
    await buyer.page.goto(`/product/${productId}`);
    await buyer.page.getByText(saleTexts.wasPrice('$300')).first().waitFor();
    await buyer.page.getByRole('button', { name: `${labels.product.bookNow}: ${sideboard}` }).first().click();
    const modal = buyer.page.getByRole('dialog', { name: texts.bookingTitle });
    await modal.getByLabel(labels.booking.phoneNumber).fill('01812345678');
    await modal.getByLabel(labels.booking.meetingLocation).fill('Dhanmondi 27, by the lake');
    await modal.getByRole('button', { name: labels.booking.confirm }).click();
    await expectText(buyer.page, `${sideboard} is booked`);

    // No reload: the booking's live event refreshes the seller's page and the menu's badge.
    const arrived = bookingCard(seller, accounts.buyer.name);
    await arrived.waitFor();
    expect(await arrived.innerText()).toContain('Dhanmondi 27, by the lake');
    expect(await arrived.innerText()).toContain('01812345678');
    // The time it was booked reads as every other time of the app does, without seconds.
    expect(await arrived.innerText()).toMatch(new RegExp(`${saleTexts.bookedAt}: [A-Z][a-z]{2} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2} [AP]M`));
    expect(await arrived.innerText()).toContain(`$250.00: ${sellerShareTexts.youReceive('$225.00')} (${sellerShareTexts.fee('$25.00')})`);
    // Each side reads its own sentence: the seller is asked to answer; the buyer, who may pay at once, is not told to wait.
    await arrived.getByText(saleTexts.bookingStatus.open.seller).waitFor();
    expect(await stepButtons(arrived, sellerSteps)).toEqual([saleTexts.accept, saleTexts.decline]);
    await buyer.page.goto('/dashboard/myOrders');
    const booked = buyer.page.getByRole('row').filter({ hasText: sideboard });
    await booked.getByText(saleTexts.bookedPayNow).waitFor();
    await booked.getByRole('link', { name: `${labels.table.pay} for ${sideboard}` }).waitFor();
    expect(await booked.getByText(saleTexts.bookingStatus.open.buyer, { exact: true }).count()).toBe(0);
    expect(await stepButtons(booked, buyerSteps)).toEqual([saleTexts.cancel]);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByLabel(saleTexts.newBookings(2)).waitFor();
    await checkPage(page, 'dashboard-seller-bookings');
  });

  it('declines one buyer with a reason and accepts the other', async () => {
    const { page } = seller;
    await bookingCard(seller, accounts.declined.name).getByRole('button', { name: `${saleTexts.decline}: ${accounts.declined.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `${saleTexts.declineTitle}: ${accounts.declined.name}` });
    await dialog.getByRole('button', { name: saleTexts.declineConfirm }).click();
    await dialog.getByText('Please give the buyer a short reason.').waitFor();
    await checkPage(page, 'dashboard-decline-booking', { fullPage: false });
    await dialog.getByLabel(saleTexts.declineReason).fill(declineReason);
    await dialog.getByRole('button', { name: saleTexts.declineConfirm }).click();
    await expectText(page, saleMessages.declined);
    await dialog.waitFor({ state: 'hidden' });

    await bookingCard(seller, accounts.buyer.name).getByRole('button', { name: `${saleTexts.accept}: ${accounts.buyer.name}` }).click();
    await expectText(page, saleMessages.accepted(sideboard));
    await bookingCard(seller, accounts.buyer.name).getByText(saleTexts.bookingStatus.accepted.seller).waitFor();
    // The seller is never told "you can pay", and can no longer accept.
    expect(await page.getByText(saleTexts.bookingStatus.accepted.buyer).count()).toBe(0);
    expect(await stepButtons(bookingCard(seller, accounts.buyer.name), sellerSteps)).toEqual([saleTexts.decline]);
    // Reserved for the buyer is not sold, to anyone looking at the piece.
    expect(await stockSeenByVisitor(productId)).toBe(saleTexts.listingState.reserved.visitor);
    expect(seller.pageErrors).toEqual([]);
  });

  it('the accepted buyer pays, and the seller marks the piece handed over', async () => {
    const { page } = buyer;
    await page.goto('/dashboard/myOrders');
    const order = page.getByRole('row').filter({ hasText: sideboard });
    await order.getByText(saleTexts.bookingStatus.accepted.buyer).waitFor();
    // Reserved for this buyer, not "sold".
    await order.getByText(saleTexts.buyerStock.reservedForYou).waitFor();
    expect(await order.innerText()).not.toMatch(/\bsold\b/);
    await order.getByText('Dhanmondi 27, by the lake').waitFor();
    await order.getByRole('button', { name: `${saleTexts.cancel}: ${sideboard}` }).waitFor();
    await checkPage(page, 'dashboard-my-orders-accepted');
    await order.getByRole('link', { name: `${labels.table.pay} for ${sideboard}` }).click();
    const pay = page.getByRole('button', { name: labels.payment.pay, exact: true });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await pay.click();
    await expectText(page, messages.paymentCompleted);

    const sale = bookingCard(seller, accounts.buyer.name);
    await sale.getByText(saleTexts.bookingStatus.paid.seller).waitFor();
    expect(await stepButtons(sale, sellerSteps)).toEqual([saleTexts.handover, saleTexts.refund]);
    await page.goto('/dashboard/myOrders');
    const paid = page.getByRole('row').filter({ hasText: sideboard });
    await paid.getByText(saleTexts.bookingStatus.paid.buyer).waitFor();
    expect(await stepButtons(paid, buyerSteps)).toEqual([saleTexts.received]);
    expect(await paid.getByRole('link', { name: `${labels.table.pay} for ${sideboard}` }).count()).toBe(0);
    // Handing over closes the sale for good: the seller is asked first, and "Not yet" changes nothing.
    await sale.getByRole('button', { name: `${saleTexts.handover}: ${accounts.buyer.name}` }).click();
    const confirm = seller.page.getByRole('dialog', { name: saleTexts.confirmHandover.title(sideboard, accounts.buyer.name) });
    await confirm.getByText(saleTexts.confirmHandover.body).waitFor();
    await checkPage(seller.page, 'dashboard-confirm-handover', { fullPage: false });
    await confirm.getByRole('button', { name: saleTexts.confirmHandover.cancel }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await sale.getByText(saleTexts.bookingStatus.paid.seller).count()).toBe(1);
    await sale.getByRole('button', { name: `${saleTexts.handover}: ${accounts.buyer.name}` }).click();
    await confirm.getByRole('button', { name: saleTexts.confirmHandover.confirm }).click();
    await expectText(seller.page, saleMessages.handedOver);
    await sale.getByText(saleTexts.bookingStatus.closed.seller).waitFor();
    expect(await stepButtons(sale, sellerSteps)).toEqual([]);
    expect(await stockSeenByVisitor(productId)).toBe(saleTexts.listingState.sold.visitor);

    await page.goto('/dashboard/myOrders');
    await page.getByRole('row').filter({ hasText: sideboard }).getByText(saleTexts.bookingStatus.closed.buyer).waitFor();
    expect(buyer.pageErrors).toEqual([]);
    expect(seller.pageErrors).toEqual([]);
  });

  it('the declined buyer reads the reason in My Orders, on a phone', async () => {
    const phone = await open({ width: 375, height: 740 });
    const { page } = phone;
    await logIn(page, accounts.declined.email, DEFAULT_TEST_PASSWORD);
    await page.goto('/dashboard/myOrders');
    // The booking keeps the name the piece had when it was booked.
    const order = page.getByRole('row').filter({ hasText: 'Teak sidebord' });
    await order.getByText(saleTexts.bookingStatus.declined.buyer).waitFor();
    await order.getByText(declineReason).waitFor();
    await order.getByText(saleTexts.buyerStock.gone).waitFor();
    expect(await order.getByRole('link', { name: `${labels.table.pay} for Teak sidebord` }).count()).toBe(0);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await checkPage(page, 'dashboard-my-orders-declined-phone');
    expect(phone.pageErrors).toEqual([]);
  });

  it('refunds a paid sale only after a dialog naming the buyer and the amount', async () => {
    const [owner] = await market.db.select().from(users).where(eq(users.email, accounts.seller.email));
    const [payer] = await market.db.select().from(users).where(eq(users.email, accounts.buyer.email));
    const armchair = await createProduct(
      market.db,
      { categoryId, sellerId: owner!.id },
      { productName: 'Rattan armchair', resalePrice: '120.00', productImage: `${market.url}/favicon.svg` },
    );
    const booking = await createBooking(market.db, armchair, payer!.id);
    // Paid by card through the product's simulated provider, and recorded as every payment is.
    const provider = new SimulatedPaymentProvider(market.db);
    const intent = await provider.createIntent({
      amountCents: 12_000,
      currency: 'usd',
      metadata: { bookingId: booking.id, productId: armchair.id, buyerId: payer!.id },
      idempotencyKey: `e2e-refund:${booking.id}`,
    });
    await provider.confirm(intent.clientSecret, { number: '4242 4242 4242 4242', expMonth: '12', expYear: '2034', cvc: '123' });
    await fulfilPayment({ db: market.db, payments: provider }, (await provider.retrieveIntent(intent.id))!);

    const { page } = seller;
    await page.goto('/dashboard/sellerBookings');
    const sale = page.getByRole('region', { name: 'Rattan armchair' }).getByRole('listitem');
    await sale.getByText(saleTexts.bookingStatus.paid.seller).waitFor();
    const refund = sale.getByRole('button', { name: `${saleTexts.refund}: ${accounts.buyer.name}` });
    await refund.click();
    const confirm = page.getByRole('dialog', { name: saleTexts.confirmRefund.title(accounts.buyer.name, '$120') });
    await confirm.getByText(saleTexts.confirmRefund.body('Rattan armchair')).waitFor();
    await checkPage(page, 'dashboard-confirm-refund', { fullPage: false });
    // "Keep the sale" changes nothing.
    await confirm.getByRole('button', { name: saleTexts.confirmRefund.cancel }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await sale.getByText(saleTexts.bookingStatus.paid.seller).count()).toBe(1);

    await refund.click();
    await confirm.getByRole('button', { name: saleTexts.confirmRefund.confirm }).click();
    await expectText(page, saleMessages.refunded);
    await sale.getByText(saleTexts.bookingStatus.cancelled.seller, { exact: true }).waitFor();
    expect(await provider.refundOf(intent.id)).toMatch(/^re_sim_/);
    expect(seller.pageErrors).toEqual([]);
  });
});
