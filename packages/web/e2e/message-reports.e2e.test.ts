import { trustTexts, trustWebTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createReview, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { auditLog, chatMessages, conversations } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

/**
 * A buyer reports a seller's message from Messages; an admin reads it with the thread around it in
 * the reports queue and removes it, and both sides then read the removal notice. Product cards
 * show the seller's rating.
 */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);

const phone = { width: 375, height: 812 };
const accounts = {
  buyer: { email: 'wary.buyer@example.com', name: 'Wary Buyer' },
  seller: { email: 'pushy.seller@example.com', name: 'Pushy Seller' },
  admin: { email: 'thread.moderator@example.com', name: 'Thread Moderator' },
};
const lamp = 'Brass floor lamp';
const question = 'Does the lamp still work?';
const offending = 'It works. Send the money by bank transfer, not through this site.';
let threadId = '';

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  const category = await createCategory(market.db, { categoryName: 'Lighting', image });
  const seller = await createUser(market.db, { ...accounts.seller, role: 'seller' });
  const buyer = await createUser(market.db, { ...accounts.buyer, role: 'buyer' });
  await createUser(market.db, { ...accounts.admin, role: 'admin' });
  const product = await createProduct(market.db, { categoryId: category.id, sellerId: seller.id }, { productName: lamp, productImage: image, advertisement: true });
  // Rated 5 and 4 by two earlier buyers.
  await createReview(market.db, product, (await createUser(market.db)).id, 5);
  await createReview(market.db, product, (await createUser(market.db)).id, 4);
  const [thread] = await market.db.insert(conversations).values({ productId: product.id, buyerId: buyer.id, sellerId: seller.id }).returning();
  threadId = thread!.id;
  await market.db.insert(chatMessages).values({ conversationId: threadId, senderId: buyer.id, text: question, createdAt: new Date(Date.now() - 60_000) });
  await market.db.insert(chatMessages).values({ conversationId: threadId, senderId: seller.id, text: offending });
});

async function signedIn(account: { email: string }, viewport?: { width: number; height: number }) {
  const session = await open(viewport);
  await logIn(session.page, account.email, DEFAULT_TEST_PASSWORD);
  return session;
}

describe('a reported message', () => {
  it('is reported by the buyer from Messages, by keyboard, on a phone', async () => {
    const { page, pageErrors } = await signedIn(accounts.buyer, phone);
    await page.goto(`/dashboard/messages?thread=${threadId}`);
    await page.locator('.chat-bubble').filter({ hasText: offending }).waitFor();
    // Only the other person's message can be reported.
    const report = page.getByRole('button', { name: trustWebTexts.reportMessage(accounts.seller.name) });
    expect(await report.count()).toBe(1);
    await checkPage(page, 'message-report-thread-phone');

    await report.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: trustWebTexts.reportMessageTitle(accounts.seller.name) });
    await dialog.getByLabel(trustWebTexts.reportReason).selectOption('scam');
    await dialog.getByLabel(trustWebTexts.reportNote).fill('Asks for a bank transfer');
    await checkPage(page, 'message-report-dialog-phone');
    await dialog.getByRole('button', { name: trustWebTexts.sendReport }).click();
    await expectText(page, trustTexts.reportReceived);
    expect(pageErrors).toEqual([]);
  });

  it('is read with its thread by an admin in the reports queue, audited, and removed', async () => {
    const { page, pageErrors } = await signedIn(accounts.admin);
    await page.goto('/dashboard/reports');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: trustWebTexts.reportedMessageHeading(lamp) }) });
    await card.getByText(offending).waitFor();
    await card.getByText(trustTexts.reportReasons.scam).waitFor();
    expect(await card.innerText()).toContain(accounts.seller.email);

    await card.getByRole('button', { name: trustWebTexts.showThread }).click();
    const excerpt = card.getByRole('region', { name: trustWebTexts.threadTitle(accounts.buyer.name, accounts.seller.name) });
    await excerpt.getByText(question).waitFor();
    await excerpt.getByText(trustWebTexts.reportedMarker).waitFor();
    await checkPage(page, 'message-report-queue');
    await page.setViewportSize(phone);
    await checkPage(page, 'message-report-queue-phone');
    const reads = await market.db.select().from(auditLog).where(eq(auditLog.action, 'report.read-thread'));
    expect(reads).toEqual([expect.objectContaining({ targetType: 'conversation', targetId: threadId, actorEmail: accounts.admin.email })]);

    await card.getByLabel(trustWebTexts.messageActionReason).fill('Payment outside the marketplace');
    await card.getByRole('button', { name: trustWebTexts.messageActionLabels.remove }).click();
    await expectText(page, trustTexts.messageRemoved);
    await page.getByText(trustWebTexts.queueEmpty).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('reads as removed by moderation on both sides, with nothing left to report', async () => {
    for (const [account, viewport, name] of [
      [accounts.buyer, phone, 'message-report-removed-buyer-phone'],
      [accounts.seller, undefined, 'message-report-removed-seller'],
    ] as const) {
      const { page, pageErrors } = await signedIn(account, viewport);
      await page.goto(`/dashboard/messages?thread=${threadId}`);
      await page.locator('.chat-bubble').filter({ hasText: trustTexts.messageRemovedByModeration }).waitFor();
      expect(await page.getByText(offending).count()).toBe(0);
      expect(await page.getByRole('button', { name: trustWebTexts.reportMessage(accounts.seller.name) }).count()).toBe(0);
      await checkPage(page, name);
      expect(pageErrors).toEqual([]);
    }
  });
});

describe('product cards', () => {
  for (const [viewport, name] of [
    [phone, 'card-seller-rating-phone'],
    [{ width: 1280, height: 900 }, 'card-seller-rating'],
  ] as const) {
    it(`show the seller’s rating in stars and in words (${viewport.width} px)`, async () => {
      const { page, pageErrors } = await open(viewport);
      await page.goto('/');
      const card = page.getByTestId('product-card').filter({ hasText: lamp });
      const rating = card.getByTestId('card-seller-rating');
      await rating.waitFor();
      expect(await rating.locator('[aria-hidden="true"]').innerText()).toBe(trustWebTexts.sellerRatingShort(4.5, 2));
      expect(await rating.locator('.sr-only').textContent()).toBe(trustWebTexts.ratingSummary(4.5, 2));
      await card.scrollIntoViewIfNeeded();
      await checkPage(page, name, { fullPage: false });
      expect(pageErrors).toEqual([]);
    });
  }
});
