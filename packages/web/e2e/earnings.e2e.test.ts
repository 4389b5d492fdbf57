import { earningsTexts, formatCents, ledgerMessages, statementTexts, uiTexts } from '@furniture/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/src/demo/factories.ts';
import { releasedSaleOf } from '../../server/test/sale-fixtures.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectText, logIn, sidewaysOverflow } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session | undefined;

afterAll(async () => {
  await session?.close();
});

const password = 'Secret123';
const balance = (key: string) => session!.page.getByTestId(`earnings-${key}`).locator('dd');

describe('a seller’s earnings', () => {
  it.each([
    { width: 1280, height: 900, name: 'wide' },
    { width: 375, height: 800, name: 'phone' },
  ])('show a released sale as available, and “Pay out now” pays it out ($name screen)', async ({ width, height, name }) => {
    const seller = await createUser(market.db, { role: 'seller', verified: true, password, name: `Salma Seller ${name}` });
    // $150 released to the seller, less the default 10% fee: $135.00 available.
    const sale = await releasedSaleOf(market.app, market.db, { seller, resalePrice: '150.00' });
    await session?.close();
    session = await openSession(chromium.browser, market.url, { width, height });
    const { page } = session;
    await logIn(page, seller.email, password);
    await page.goto('/dashboard');
    if (width < 1024) await page.getByRole('button', { name: uiTexts.dashboard.openMenu }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: earningsTexts.title }).click();
    await expectPath(page, '/dashboard/earnings');

    await expect.poll(() => balance('available').innerText()).toBe(formatCents(13_500));
    expect(await balance('pending').innerText()).toBe(formatCents(0));
    expect(await balance('paid-out').innerText()).toBe(formatCents(0));
    const released = page.getByRole('row').filter({ hasText: statementTexts.kinds.release }).filter({ hasText: statementTexts.accounts.available });
    expect(await released.innerText()).toContain(sale.product.productName);
    await expectText(page, earningsTexts.noPayouts);
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, `earnings-available-${name}`, { fullPage: true });

    await page.getByRole('button', { name: earningsTexts.payOut }).click();
    await expectText(page, ledgerMessages.payoutRequested);
    await expect.poll(() => balance('paid-out').innerText()).toBe(formatCents(13_500));
    expect(await balance('available').innerText()).toBe(formatCents(0));
    const payout = page.getByRole('list', { name: earningsTexts.payoutsTitle }).getByRole('listitem');
    await expect.poll(() => payout.innerText()).toContain(earningsTexts.payoutStatus.paid);
    expect(await payout.innerText()).toContain(formatCents(13_500));
    // The payout is one movement: one line, what left the available balance.
    const paidOut = page.getByRole('row').filter({ hasText: statementTexts.kinds.payout });
    await expect.poll(() => paidOut.count()).toBe(1);
    expect(await paidOut.innerText()).toContain(formatCents(-13_500));
    // Nothing is left: the button says why it cannot be pressed.
    expect(await page.getByRole('button', { name: earningsTexts.payOut }).isDisabled()).toBe(true);
    await expectText(page, earningsTexts.nothingAvailable);
    await checkPage(page, `earnings-paid-out-${name}`, { fullPage: true });
    expect(session.pageErrors).toEqual([]);
  });
});
