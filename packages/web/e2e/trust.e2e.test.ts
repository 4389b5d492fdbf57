import { reviewTexts, trustTexts, trustWebTexts } from '@furniture/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { reports, reviews } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions, waitForNetworkIdle, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);

const buyer = { email: 'careful.buyer@example.com', password: DEFAULT_TEST_PASSWORD };
const admin = { email: 'moderator@example.com', password: DEFAULT_TEST_PASSWORD };
const seller = { email: 'shady.seller@example.com', password: DEFAULT_TEST_PASSWORD, name: 'Shady Seller' };
const sofa = 'Designer sofa, genuine';
const hideReason = 'The photos are copied from a shop';
let productId = '';
let sellerId = '';
const honestSeller = { email: 'honest.seller@example.com', name: 'Honest Seller' };
const table = 'Oak dining table';
let honestSellerId = '';

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  await createUser(market.db, { ...buyer, role: 'buyer', name: 'Careful Buyer', image });
  await createUser(market.db, { ...admin, role: 'admin', name: 'Mo Moderator' });
  const shady = await createUser(market.db, { ...seller, role: 'seller', image });
  sellerId = shady.id;
  const category = await createCategory(market.db, { categoryName: 'Sofas', image });
  productId = (await createProduct(market.db, { categoryId: category.id, sellerId: shady.id }, { productName: sofa, productImage: image })).id;
  // A sale the buyer closed with another seller: paid and handed over.
  const honest = await createUser(market.db, { ...honestSeller, role: 'seller', image });
  honestSellerId = honest.id;
  const sold = await createProduct(market.db, { categoryId: category.id, sellerId: honest.id }, { productName: table, productImage: image, state: 'sold' });
  const careful = await createUser(market.db, { email: 'closed.sale.buyer@example.com', role: 'buyer', name: 'Repeat Buyer', image });
  await createBooking(market.db, sold, careful.id, { paymentStatus: 'paid', status: 'closed' });
});


async function signedIn(account: { email: string; password: string }, viewport?: { width: number; height: number }) {
  const session = await open(viewport);
  await logIn(session.page, account.email, account.password);
  return session;
}

/**
 * The admin's one session for the whole file, at the width asked for: an admin signs in with a
 * code from the app, and the server takes one code a 30-second step, so four sign-ins in a row
 * would run out of codes.
 */
let adminSession: Session | undefined;
async function adminSignedIn(viewport = { width: 1280, height: 900 }) {
  adminSession ??= await signedIn(admin);
  await adminSession.page.setViewportSize(viewport);
  return adminSession;
}

describe('a reported listing', () => {
  it('is reported by a buyer from its page, on a phone', async () => {
    const { page, pageErrors } = await signedIn(buyer, { width: 390, height: 844 });
    await page.goto(`/product/${productId}`);
    await page.getByRole('heading', { name: sofa }).waitFor();
    expect(await page.getByTestId('seller-rating').innerText()).toBe(trustWebTexts.ratingSummary(null, 0));

    await page.getByRole('button', { name: trustWebTexts.report, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: trustWebTexts.reportTitle(sofa) });
    // Nothing is chosen for the buyer: sent at once, the report asks what is wrong and files nothing.
    expect(await dialog.getByLabel(trustWebTexts.reportReason).inputValue()).toBe('');
    await dialog.getByRole('button', { name: trustWebTexts.sendReport }).click();
    await dialog.getByText(trustWebTexts.reportReasonRequired, { exact: true }).waitFor();
    await checkPage(page, 'trust-report-without-reason-phone');
    expect(await market.db.select().from(reports)).toEqual([]);
    await dialog.getByLabel(trustWebTexts.reportReason).selectOption('misdescribed');
    await dialog.getByLabel(trustWebTexts.reportNote).fill('Same photos as a shop’s website');
    await checkPage(page, 'trust-report-dialog-phone');
    await dialog.getByRole('button', { name: trustWebTexts.sendReport }).click();
    await expectText(page, trustTexts.reportReceived);
    expect(pageErrors).toEqual([]);
  });

  it('is hidden by an admin from the reports queue, and the act is in the audit log', async () => {
    const { page, pageErrors } = await adminSignedIn();
    await page.goto('/dashboard/reports');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: sofa }) });
    await card.getByText(trustTexts.reportReasons.misdescribed).waitFor();
    await checkPage(page, 'trust-reports-queue');
    // Without a reason the admin is told to give one, in plain words.
    await card.getByRole('button', { name: trustWebTexts.actionLabels.hide }).click();
    await expectText(page, trustTexts.reasonRequired);
    await checkPage(page, 'trust-reports-queue-no-reason', { includeToasts: true });
    await card.getByLabel(trustWebTexts.actionReason).fill(hideReason);
    await card.getByRole('button', { name: trustWebTexts.actionLabels.hide }).click();
    await expectText(page, trustTexts.moderationDone.hide);
    await page.getByText(trustWebTexts.queueEmpty).waitFor();

    await page.goto('/dashboard/audit');
    const row = page.getByRole('row').filter({ hasText: 'report.hide' });
    await row.getByText(hideReason).waitFor();
    expect(await row.innerText()).toContain(admin.email);
    await checkPage(page, 'trust-audit-log');

    // Gone from public lists: its page says it is gone (410).
    const response = await page.request.get(`/api/products/${productId}`);
    expect(response.status()).toBe(410);
    expect(pageErrors).toEqual([]);
  });

  it('shows its seller why it was hidden', async () => {
    const { page, pageErrors } = await signedIn(seller);
    await page.goto('/dashboard/myProducts');
    const row = page.getByRole('row').filter({ hasText: sofa });
    await row.getByText(trustWebTexts.hiddenBadge).waitFor();
    await row.getByText(trustWebTexts.moderationReason(hideReason)).waitFor();
    await checkPage(page, 'trust-my-products-hidden');
    expect(pageErrors).toEqual([]);
  });

  it('leaves the seller a public profile page anyone can open', async () => {
    const session = await open();
    await session.page.goto(`/seller/${sellerId}`);
    await session.page.getByRole('heading', { name: seller.name }).waitFor();
    await session.page.getByText(trustWebTexts.noListings).waitFor();
    await waitForNetworkIdle(session.page);
    await checkPage(session.page, 'trust-seller-profile');
  });
});

describe('an appeal of the hidden listing', () => {
  const appealText = 'The photos are my own, taken in my living room';

  it('is sent once by its seller from My Products, on a phone', async () => {
    const { page, pageErrors } = await signedIn(seller, { width: 375, height: 812 });
    await page.goto('/dashboard/myProducts');
    const row = page.getByRole('row').filter({ hasText: sofa });
    await row.getByRole('button', { name: `${trustWebTexts.appeal}: ${sofa}` }).click();
    const dialog = page.getByRole('dialog', { name: trustWebTexts.appealTitle(sofa) });
    await dialog.getByLabel(trustWebTexts.appealText).fill(appealText);
    await checkPage(page, 'trust-appeal-dialog-phone');
    await dialog.getByRole('button', { name: trustWebTexts.sendAppeal }).click();
    await expectText(page, trustTexts.appealSent);
    // The state replaces the button: a listing is appealed once.
    await row.getByText(trustWebTexts.appealStates.pending).waitFor();
    expect(await row.getByRole('button', { name: `${trustWebTexts.appeal}: ${sofa}` }).count()).toBe(0);
    await checkPage(page, 'trust-my-products-appealed-phone');
    expect(pageErrors).toEqual([]);
  });

  // One test a width: each signs in and checks its page with axe, which together can outlast one test's time.
  it.for([
    ['a phone', { width: 375, height: 812 }, 'trust-queue-appeal-phone'],
    ['a desktop', undefined, 'trust-queue-appeal'],
  ] as const)('is marked in the admin’s queue with the listing’s history, on %s', async ([, viewport, shot]) => {
    const { page } = await adminSignedIn(viewport);
    await page.goto('/dashboard/reports');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: sofa }) });
    await card.getByText(trustWebTexts.appealedBadge).waitFor();
    await card.getByText(trustWebTexts.appealFromSeller(appealText)).waitFor();
    await card.getByText(trustWebTexts.historyTitle).click();
    await card.getByText(hideReason, { exact: false }).first().waitFor();
    await checkPage(page, shot);
  });

  it('is granted by the admin restoring the listing, which returns to the seller’s open My Products', async () => {
    // The seller watches My Products while the admin answers.
    const sellerSession = await signedIn(seller);
    await sellerSession.page.goto('/dashboard/myProducts');
    const sellerRow = sellerSession.page.getByRole('row').filter({ hasText: sofa });
    await sellerRow.getByText(trustWebTexts.appealStates.pending).waitFor();

    const { page, pageErrors } = await adminSignedIn();
    await page.goto('/dashboard/reports');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: sofa }) });
    await card.getByLabel(trustWebTexts.actionReason).fill('The seller showed their own photos');
    await card.getByRole('button', { name: trustWebTexts.appealAnswerLabels.restore }).click();
    await expectText(page, trustTexts.appealAnswered.restore);
    await page.getByText(trustWebTexts.queueEmpty).waitFor();
    expect((await page.request.get(`/api/products/${productId}`)).status()).toBe(200);
    // The listing is back in the seller's open tab without a reload, by the live event.
    await sellerRow.getByText(trustWebTexts.hiddenBadge).waitFor({ state: 'detached' });
    expect(sellerSession.pageErrors).toEqual([]);

    // Handled reports keep the listing's story: the report, the hiding and the restoring.
    await page.getByLabel(trustWebTexts.queueStatusLabel).selectOption('closed');
    const handled = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: sofa }) });
    await handled.getByText(trustWebTexts.appealStates.granted).waitFor();
    await handled.getByText(trustWebTexts.historyTitle).click();
    await handled.getByText('appeal.restore', { exact: false }).waitFor();
    await checkPage(page, 'trust-queue-handled');
    expect(pageErrors).toEqual([]);
  });
});

describe('a closed sale', () => {
  it('shows its buyer the seller’s contact, is reviewed in My Orders, and the rating shows on the seller’s profile', async () => {
    const { page, pageErrors } = await signedIn({ email: 'closed.sale.buyer@example.com', password: DEFAULT_TEST_PASSWORD });
    await page.goto('/dashboard/myOrders');
    // The booking names the seller and their phone; the e-mail reaches the buyer of the piece on demand.
    await page.getByRole('link', { name: '01700000000' }).waitFor();
    await page.getByRole('button', { name: `${trustWebTexts.showSellerEmail}: ${table}` }).click();
    await page.getByRole('link', { name: honestSeller.email }).waitFor();
    await page.getByRole('button', { name: `${trustWebTexts.reviewSeller}: ${table}` }).click();
    const dialog = page.getByRole('dialog', { name: trustWebTexts.reviewTitle(table) });
    // An empty review publishes nothing: the stars are the buyer's to choose.
    await dialog.getByRole('button', { name: trustWebTexts.sendReview }).click();
    await dialog.getByText(trustWebTexts.starsRequired, { exact: true }).waitFor();
    expect(await market.db.select().from(reviews)).toEqual([]);
    await dialog.getByLabel(trustWebTexts.reviewRating).selectOption('4');
    await dialog.getByLabel(trustWebTexts.reviewText).fill('Sturdy table, friendly hand-over');
    await checkPage(page, 'trust-review-dialog');
    await dialog.getByRole('button', { name: trustWebTexts.sendReview }).click();
    await expectText(page, reviewTexts.saved);

    // Within 14 days the buyer can open the review again, as written, and change it.
    await page.getByRole('button', { name: `${trustWebTexts.changeReview}: ${table}` }).click();
    const written = page.getByRole('dialog', { name: trustWebTexts.changeReviewTitle(table) });
    expect(await written.getByLabel(trustWebTexts.reviewRating).inputValue()).toBe('4');
    expect(await written.getByLabel(trustWebTexts.reviewText).inputValue()).toBe('Sturdy table, friendly hand-over');
    await written.getByLabel(trustWebTexts.reviewRating).selectOption('5');
    await written.getByLabel(trustWebTexts.reviewText).fill('Sturdy table, very friendly hand-over');
    await checkPage(page, 'trust-review-change-dialog');
    await written.getByRole('button', { name: trustWebTexts.saveReview }).click();
    await expectText(page, reviewTexts.updated);

    await page.goto(`/seller/${honestSellerId}`);
    await page.getByRole('heading', { name: honestSeller.name }).waitFor();
    await expect.poll(() => page.getByTestId('seller-rating').innerText()).toBe(trustWebTexts.ratingSummary(5, 1));
    await page.getByText('Sturdy table, very friendly hand-over').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
