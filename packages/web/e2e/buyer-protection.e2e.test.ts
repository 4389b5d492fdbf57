import { eq } from 'drizzle-orm';
import { ledgerMessages, protectionTexts, saleTexts, webRoutes } from '@furniture/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/src/demo/factories.ts';
import { saleFunds } from '../../server/src/db/schema/index.ts';
import { bookingStep, paidSaleOf } from '../../server/test/sale-fixtures.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn, sidewaysOverflow } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
const sessions: Session[] = [];

afterAll(async () => {
  for (const session of sessions) {
    expect(session.pageErrors).toEqual([]);
    await session.close();
  }
});

const password = 'Secret123';
/** As the web app writes a moment, read in UTC (the sessions' time zone). */
const shown = (date: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date);

describe('buyer protection', () => {
  it.each([
    { width: 1280, height: 900, name: 'wide' },
    { width: 375, height: 800, name: 'phone' },
  ])('shows the buyer and the seller where the money is and when it is released, and takes the buyer’s report ($name screen)', async ({ width, height, name }) => {
    const seller = await createUser(market.db, { role: 'seller', verified: true, password, name: `Selma Seller ${name}` });
    const sale = await paidSaleOf(market.app, market.db, { seller, buyerPassword: password });
    const buyer = sale.buyers[0]!.user;
    const productName = sale.product.productName;
    const buyerSession = await openSession(chromium.browser, market.url, { width, height }, 'UTC');
    sessions.push(buyerSession);
    const { page } = buyerSession;
    await logIn(page, buyer.email, password);

    // Paid, not handed over yet: held, and the buyer may confirm receipt or report a problem.
    await page.goto(webRoutes.dashboard.myOrders);
    await expectText(page, protectionTexts.heldUntilHandover);
    await page.getByRole('button', { name: `${saleTexts.received}: ${productName}` }).waitFor();
    await page.getByRole('button', { name: `${protectionTexts.somethingWrong}: ${productName}` }).waitFor();

    // Handed over: held until the release date.
    expect((await bookingStep(market.app, sale.sellerHeaders, sale.booking.id, 'handover')).statusCode).toBe(200);
    const [funds] = await market.db.select().from(saleFunds).where(eq(saleFunds.bookingId, sale.booking.id));
    const heldUntil = protectionTexts.heldUntil(shown(funds!.releaseAt!));
    await page.reload();
    await expectText(page, heldUntil);
    // My Orders is a wide table on a wide screen; on a phone it fits.
    if (width < 1024) expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, `protection-held-${name}`, { fullPage: true });

    await page.getByRole('button', { name: `${protectionTexts.somethingWrong}: ${productName}` }).click();
    const dialog = page.getByRole('dialog', { name: protectionTexts.reportTitle(productName) });
    await dialog.getByRole('button', { name: protectionTexts.send }).click();
    await dialog.getByText('Please choose what is wrong.').waitFor();
    await dialog.getByLabel(protectionTexts.reason).selectOption({ label: protectionTexts.reasons.damaged });
    await dialog.getByLabel(protectionTexts.note).fill('One leg is cracked.');
    await checkPage(page, `protection-report-${name}`);
    await dialog.getByRole('button', { name: protectionTexts.send }).click();
    await expectText(page, ledgerMessages.problemReported);

    // Frozen: neither step applies any more.
    await expectText(page, protectionTexts.frozen);
    expect(await page.getByRole('button', { name: `${saleTexts.received}: ${productName}` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `${protectionTexts.somethingWrong}: ${productName}` }).count()).toBe(0);

    const sellerSession = await openSession(chromium.browser, market.url, { width, height }, 'UTC');
    sessions.push(sellerSession);
    await logIn(sellerSession.page, seller.email, password);
    await sellerSession.page.goto(webRoutes.dashboard.sellerBookings);
    const booking = sellerSession.page.getByRole('region', { name: productName }).getByRole('listitem');
    await expect.poll(() => booking.innerText()).toContain(`${protectionTexts.title}: ${protectionTexts.frozen}`);
    expect(await sidewaysOverflow(sellerSession.page)).toBe(0);
    await checkPage(sellerSession.page, `protection-seller-${name}`, { fullPage: true });
  });
});
