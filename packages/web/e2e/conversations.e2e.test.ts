import { conversationMessages, conversationTexts, friendlyMessage, labels, messages, notificationScreenTexts, saleTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { bookings, payments, users } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

/**
 * A buyer and a seller in two browsers talk about a piece, agree a price by an offer, and the buyer
 * pays the agreed price, each seeing the other's moves without reloading.
 */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);
let seller: Session;
let buyer: Session;
const armchair = 'Velvet armchair';
const accounts = {
  seller: { email: 'nadia.seller@example.com', name: 'Nadia Seller' },
  buyer: { email: 'omar.buyer@example.com', name: 'Omar Buyer' },
};
/** The phone number in the buyer's settings, which the offer's booking details start from. */
const buyersPhone = '01712345678';
let productId: string;
/** The buyer's thread about the armchair, as its address names it. */
let threadId: string | null;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const category = await createCategory(market.db, { categoryName: 'Seating', description: 'Chairs and sofas', image });
  const owner = await createUser(market.db, { ...accounts.seller, role: 'seller', verified: true });
  const buyerAccount = await createUser(market.db, { ...accounts.buyer, role: 'buyer' });
  await market.db.update(users).set({ phone: buyersPhone }).where(eq(users.id, buyerAccount.id));
  const product = await createProduct(market.db, { categoryId: category.id, sellerId: owner.id }, { productName: armchair, resalePrice: '200.00', productImage: image });
  productId = product.id;
});



/** The navbar's notification bell, named with its count of unread notifications. */
const bell = (session: Session, unread: number) => session.page.getByRole('banner').getByLabel(notificationScreenTexts.bell(unread), { exact: true });
const bubble = (session: Session, text: string) => session.page.locator('.chat-bubble').filter({ hasText: text });

describe('talking and haggling', () => {
  it('the buyer messages the seller from the product page, and each sees the other’s messages live', async () => {
    seller = await open();
    await logIn(seller.page, accounts.seller.email, DEFAULT_TEST_PASSWORD);
    buyer = await open();
    await logIn(buyer.page, accounts.buyer.email, DEFAULT_TEST_PASSWORD);

    await buyer.page.goto(`/product/${productId}`);
    await buyer.page.getByRole('button', { name: `${conversationTexts.messageSeller}: ${armchair}` }).click();
    await buyer.page.waitForURL((url) => url.pathname === '/dashboard/messages' && url.searchParams.has('thread'));
    const threadUrl = new URL(buyer.page.url());
    threadId = threadUrl.searchParams.get('thread');

    await seller.page.goto('/dashboard/messages');
    const link = seller.page.getByRole('link', { name: new RegExp(armchair) });
    await link.waitFor();
    expect(await link.getByLabel(conversationTexts.unread(1)).count()).toBe(0);

    // Markup and addresses arrive as the text typed: nothing is interpreted, nothing is a link.
    const hello = 'Is it still available? <b>bold</b> https://example.com';
    await buyer.page.getByLabel(conversationTexts.messageLabel).fill(hello);
    await buyer.page.getByRole('button', { name: conversationTexts.send }).click();

    // The seller's list and bell count the new message without a reload.
    await expect.poll(() => link.getByLabel(conversationTexts.unread(1)).count()).toBe(1);
    await bell(seller, 1).waitFor();
    await link.click();
    await bubble(seller, hello).waitFor();
    // Each message shows when it was sent.
    const sentAt = await seller.page.locator('.chat').filter({ hasText: hello }).locator('time').getAttribute('datetime');
    expect(Date.now() - Date.parse(sentAt!)).toBeLessThan(60_000);
    expect(await bubble(seller, hello).locator('a, b').count()).toBe(0);
    await checkPage(seller.page, 'dashboard-messages');

    // Shift+Enter starts a new line; Enter sends.
    const box = seller.page.getByLabel(conversationTexts.messageLabel);
    await box.fill('Yes!');
    await box.press('Shift+Enter');
    await box.pressSequentially('Pick it up on Saturday?');
    expect(await box.inputValue()).toBe('Yes!\nPick it up on Saturday?');
    await box.press('Enter');
    await bubble(buyer, 'Yes!\nPick it up on Saturday?').waitFor();
    await expect.poll(() => box.inputValue()).toBe('');
    expect(buyer.page.url()).toBe(threadUrl.href);
  });

  it('the buyer offers with a phone number and meeting place, the seller accepts, and the buyer pays the agreed price', async () => {
    // The booking the offer makes needs the buyer's phone (from their settings) and a meeting place.
    expect(await buyer.page.getByLabel(labels.booking.phoneNumber).inputValue()).toBe(buyersPhone);
    await buyer.page.getByLabel(conversationTexts.offerLabel).fill('150');
    await buyer.page.getByRole('button', { name: conversationTexts.makeOffer }).click();
    await expectText(buyer.page, friendlyMessage('location is required'));
    await buyer.page.getByLabel(labels.booking.meetingLocation).fill('Dhanmondi 27, by the lake gate');
    await checkPage(buyer.page, 'offer-with-meeting-details');
    await buyer.page.getByRole('button', { name: conversationTexts.makeOffer }).click();

    const offer = seller.page.getByRole('listitem').filter({ hasText: conversationTexts.offerBy(accounts.buyer.name, '$150') });
    await offer.waitFor();
    await offer.getByRole('button', { name: conversationTexts.accept }).click();

    await buyer.page.getByText(conversationTexts.offerStatus.accepted).waitFor();
    // The piece is booked for the buyer at that price: no further offer is asked for.
    expect(await buyer.page.getByRole('button', { name: conversationTexts.makeOffer }).count()).toBe(0);
    // Straight to paying the booking the accepted offer made.
    const thread = buyer.page.url();
    await buyer.page.getByRole('link', { name: conversationTexts.payAgreedPrice }).click();
    await buyer.page.waitForURL((url) => url.pathname.startsWith('/dashboard/payment/'));
    await expectText(buyer.page, '$150');
    const pay = buyer.page.getByRole('button', { name: labels.payment.pay, exact: true });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await buyer.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.page.getByLabel('Expiry (MM/YY)').fill('12 / 34');
    await buyer.page.getByLabel('CVC').fill('123');
    await pay.click();
    await expectText(buyer.page, messages.paymentCompleted);
    // Paid: the thread asks for no second payment, nor says the piece cannot be had.
    await buyer.page.goto(thread);
    await buyer.page.getByText(conversationTexts.offerStatus.accepted).waitFor();
    expect(await buyer.page.getByRole('link', { name: conversationTexts.payAgreedPrice }).count()).toBe(0);
    expect(await buyer.page.getByText(conversationMessages.offerNotAvailable).count()).toBe(0);

    const charged = await market.db.select().from(payments).where(eq(payments.productId, productId));
    expect(charged.map((payment) => payment.amountCents)).toEqual([15_000]);
    const [booking] = await market.db.select().from(bookings).where(eq(bookings.productId, productId));
    expect(booking).toMatchObject({ phoneNumber: buyersPhone, location: 'Dhanmondi 27, by the lake gate' });
    expect(seller.pageErrors).toEqual([]);
    expect(buyer.pageErrors).toEqual([]);
  });

  it('the seller’s bell counts the message, the offer and the payment, lists the newest in place with their times, and falls to none once they are read', async () => {
    const { page } = seller;
    await bell(seller, 3).click();
    const panel = page.getByRole('region', { name: notificationScreenTexts.title });
    const offered = panel.getByRole('link', { name: new RegExp(`${accounts.buyer.name} offered \\$150.00 for ${armchair}`) });
    await offered.waitFor();
    expect(await offered.locator('time').count()).toBe(1);
    expect(await panel.getByRole('listitem').count()).toBe(3);
    await checkPage(page, 'notification-bell-open', { fullPage: false });
    await panel.getByRole('link', { name: notificationScreenTexts.seeAll }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/notifications');
    await page.getByRole('listitem').filter({ hasText: `${accounts.buyer.name} offered $150.00 for ${armchair}.` }).waitFor();
    await checkPage(page, 'dashboard-notifications');
    await page.getByRole('button', { name: notificationScreenTexts.markAllRead }).click();
    await bell(seller, 0).waitFor();
    expect(seller.pageErrors).toEqual([]);
  });

  it('the seller messages the buyer from the bookings on their products, in the same thread', async () => {
    const { page } = seller;
    await page.goto('/dashboard/sellerBookings');
    await page.getByRole('button', { name: `${saleTexts.messageBuyer}: ${accounts.buyer.name}` }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/messages' && url.searchParams.get('thread') === threadId);
    await bubble(seller, 'Yes!\nPick it up on Saturday?').waitFor();
    expect(seller.pageErrors).toEqual([]);
  });

  it('the Messages screen works at a phone’s width', async () => {
    const phone = await open({ width: 375, height: 740 });
    await logIn(phone.page, accounts.buyer.email, DEFAULT_TEST_PASSWORD);
    await phone.page.goto('/dashboard/messages');
    await phone.page.getByRole('link', { name: new RegExp(armchair) }).click();
    await bubble(phone, 'Yes! Pick it up on Saturday?').waitFor();
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await checkPage(phone.page, 'dashboard-messages-phone');
    // The bell's list opens within the screen.
    await phone.page.getByRole('banner').getByLabel(/^Notifications/).click();
    const panel = (await phone.page.getByRole('region', { name: notificationScreenTexts.title }).boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(375);
    await phone.page.getByRole('link', { name: notificationScreenTexts.seeAll }).waitFor();
  });
});
