import fs from 'node:fs';
import { earningsTexts, formatCents, getPaidTexts, labels, ledgerMessages, messages, saleMessages, saleTexts, sellerShareTexts, statementTexts, texts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { payouts } from '../../server/src/db/schema/index.ts';
import { checkPage, setupBrowser, setupSessions, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn, sidewaysOverflow } from './support/ui.ts';

/**
 * The money of a sale, from the buyer's card to the seller's bank: the buyer books and pays, the
 * seller accepts and hands the piece over, the buyer confirms receipt, and the seller sees the money
 * move from pending to available, pays it out and downloads the month's statement.
 */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);

const balance = (session: Session, key: string) => session.page.getByTestId(`earnings-${key}`).locator('dd');

describe('a sale’s money', () => {
  it.each([
    { width: 1280, height: 900, name: 'wide' },
    { width: 375, height: 800, name: 'phone' },
  ])(
    'goes from the buyer’s card to pending, to available when the buyer confirms receipt, and out with “Pay out now” ($name screen)',
    async ({ width, height, name }) => {
      const image = `${market.url}/favicon.svg`;
      const seller = await createUser(market.db, { role: 'seller', verified: true, name: `Salma Seller ${name}` });
      const buyer = await createUser(market.db, { role: 'buyer', name: `Bilal Buyer ${name}` });
      const category = await createCategory(market.db, { image });
      const piece = `Walnut desk ${name}`;
      const product = await createProduct(market.db, { categoryId: category.id, sellerId: seller.id }, { productName: piece, resalePrice: '150.00', productImage: image });

      // The buyer books the desk.
      const buying = await open({ width, height });
      await logIn(buying.page, buyer.email, DEFAULT_TEST_PASSWORD);
      await buying.page.goto(`/product/${product.id}`);
      await buying.page.getByRole('button', { name: `${labels.product.bookNow}: ${piece}` }).first().click();
      const booking = buying.page.getByRole('dialog', { name: texts.bookingTitle });
      await booking.getByLabel(labels.booking.phoneNumber).fill('01812345678');
      await booking.getByLabel(labels.booking.meetingLocation).fill('Dhanmondi 27');
      await booking.getByRole('button', { name: labels.booking.confirm }).click();
      await expectText(buying.page, `${piece} is booked`);

      // The seller sees what the sale brings them, and accepts.
      const selling = await open({ width, height });
      await logIn(selling.page, seller.email, DEFAULT_TEST_PASSWORD);
      await selling.page.goto('/dashboard/sellerBookings');
      const card = selling.page.getByRole('listitem').filter({ hasText: buyer.name });
      await card.getByText(sellerShareTexts.youReceive(formatCents(13_500))).waitFor();
      await card.getByRole('button', { name: `${saleTexts.accept}: ${buyer.name}` }).click();
      await expectText(selling.page, saleMessages.accepted(piece));

      // The buyer pays with the simulated card.
      await buying.page.goto('/dashboard/myOrders');
      await buying.page.getByRole('link', { name: `${labels.table.pay} for ${piece}` }).click();
      const pay = buying.page.getByRole('button', { name: labels.payment.pay, exact: true });
      await expect.poll(() => pay.isEnabled()).toBe(true);
      await buying.page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await buying.page.getByLabel('Expiry (MM/YY)').fill('12 / 34');
      await buying.page.getByLabel('CVC').fill('123');
      await pay.click();
      await expectText(buying.page, messages.paymentCompleted);

      // Paid: the seller's share is pending, held by buyer protection.
      await selling.page.goto('/dashboard/earnings');
      await expect.poll(() => balance(selling, 'pending').innerText()).toBe(formatCents(13_500));
      expect(await balance(selling, 'available').innerText()).toBe(formatCents(0));
      // Nothing has reached the seller yet: the weekly chart says so instead of drawing an empty box.
      const chart = selling.page.getByRole('img', { name: earningsTexts.chartLabel(12) });
      await selling.page.getByText(earningsTexts.noWeeklyEarnings(12)).waitFor();
      expect(await chart.count()).toBe(0);

      // The seller hands the desk over; the buyer confirms receipt.
      await selling.page.goto('/dashboard/sellerBookings');
      await card.getByRole('button', { name: `${saleTexts.handover}: ${buyer.name}` }).click();
      await selling.page.getByRole('dialog').getByRole('button', { name: saleTexts.confirmHandover.confirm }).click();
      await expectText(selling.page, saleMessages.handedOver);
      await buying.page.goto('/dashboard/myOrders');
      await buying.page.getByRole('button', { name: `${saleTexts.received}: ${piece}` }).click();
      await expectText(buying.page, saleMessages.received);

      // The money is available, every movement once.
      await selling.page.goto('/dashboard/earnings');
      await expect.poll(() => balance(selling, 'available').innerText()).toBe(formatCents(13_500));
      expect(await balance(selling, 'pending').innerText()).toBe(formatCents(0));
      const released = selling.page.getByRole('row').filter({ hasText: statementTexts.kinds.release });
      expect(await released.innerText()).toContain(piece);
      await chart.waitFor();
      // Payouts go to the simulated payout provider: nothing to set up.
      await expectText(selling.page, getPaidTexts.simulated);
      expect(await selling.page.getByRole('button', { name: getPaidTexts.setUp }).count()).toBe(0);
      expect(await sidewaysOverflow(selling.page)).toBe(0);
      await checkPage(selling.page, `earnings-available-${name}`, { fullPage: true });

      // Pay out now: one payout, listed with its reference, one line among the movements.
      await selling.page.getByRole('button', { name: earningsTexts.payOut }).click();
      await expectText(selling.page, ledgerMessages.payoutRequested);
      await expect.poll(() => balance(selling, 'paid-out').innerText()).toBe(formatCents(13_500));
      expect(await balance(selling, 'available').innerText()).toBe(formatCents(0));
      const [made] = await market.db.select().from(payouts).where(eq(payouts.sellerId, seller.id));
      expect(made).toMatchObject({ status: 'paid', amountCents: 13_500, reference: expect.any(String) });
      const payout = selling.page.getByRole('list', { name: earningsTexts.payoutsTitle }).getByRole('listitem');
      await expect.poll(() => payout.innerText()).toContain(`${earningsTexts.reference}: ${made!.reference}`);
      expect(await payout.innerText()).toContain(earningsTexts.payoutStatus.paid);
      const paidOut = selling.page.getByRole('row').filter({ hasText: statementTexts.kinds.payout });
      await expect.poll(() => paidOut.count()).toBe(1);
      expect(await paidOut.innerText()).toContain(formatCents(-13_500));
      expect(await selling.page.getByRole('button', { name: earningsTexts.payOut }).isDisabled()).toBe(true);
      await checkPage(selling.page, `earnings-paid-out-${name}`, { fullPage: true });

      // This month's statement, as CSV: the sale held, released, and paid out.
      const month = new Date().toISOString().slice(0, 7);
      await selling.page.locator('input[type="month"]').fill(month);
      const [download] = await Promise.all([
        selling.page.waitForEvent('download'),
        selling.page.getByRole('button', { name: earningsTexts.downloadStatement }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`statement-${month}.csv`);
      const csv = fs.readFileSync(await download.path(), 'utf8');
      const [header, ...lines] = csv.trimEnd().split('\r\n');
      expect(header).toBe(statementTexts.columns.join(','));
      expect(lines.map((line) => line.split(',').slice(1))).toEqual([
        [statementTexts.kinds.charge, piece, statementTexts.accounts.held, '135.00'],
        [statementTexts.kinds.release, piece, statementTexts.accounts.available, '135.00'],
        [statementTexts.kinds.payout, '', statementTexts.accounts.available, '-135.00'],
      ]);

      expect(buying.pageErrors).toEqual([]);
      expect(selling.pageErrors).toEqual([]);
      await buying.close();
      await selling.close();
    },
    180_000,
  );
});
