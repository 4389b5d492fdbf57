import { financeTexts, formatCents, labels, ledgerMessages, protectionTexts, uiTexts } from '@furniture/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/src/demo/factories.ts';
import { paidSaleOf, releasedSaleOf } from '../../server/test/sale-fixtures.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectText, logIn, sidewaysOverflow } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session | undefined;

afterAll(async () => {
  expect(session?.pageErrors).toEqual([]);
  await session?.close();
});

const password = 'Secret123';
const figure = (key: string) => session!.page.getByTestId(`finance-${key}`).locator('dd');

describe('the admin’s Finance screen', () => {
  it.each([
    { width: 1280, height: 900, name: 'wide' },
    { width: 375, height: 800, name: 'phone' },
  ])('shows the money from the ledger, its balance check, and releases a reported sale after asking ($name screen)', async ({ width, height, name }) => {
    const admin = await createUser(market.db, { role: 'admin', password, name: `Ada Admin ${name}` });
    const seller = await createUser(market.db, { role: 'seller', verified: true, name: `Sam Seller ${name}` });
    // Each round adds a released $150 sale (a $15 fee) and a $60 sale whose buyer reports a problem.
    await releasedSaleOf(market.app, market.db, { seller, resalePrice: '150.00' });
    const disputed = await paidSaleOf(market.app, market.db, { seller, resalePrice: '60.00' });
    const reported = await market.app.inject({
      method: 'POST',
      url: `/api/bookings/${disputed.booking.id}/problem`,
      headers: disputed.buyerHeaders,
      payload: { reason: 'not-received', note: 'Nobody came to the meeting.' },
    });
    expect(reported.statusCode).toBe(201);
    const round = name === 'wide' ? 1 : 2;

    await session?.close();
    session = await openSession(chromium.browser, market.url, { width, height });
    const { page } = session;
    await logIn(page, admin.email, password);
    await page.goto('/dashboard');
    if (width < 1024) await page.getByRole('button', { name: uiTexts.dashboard.openMenu }).click();
    await page.getByRole('navigation', { name: labels.nav.dashboard }).getByRole('link', { name: financeTexts.title }).click();
    await expectPath(page, '/dashboard/finance');

    await expect.poll(() => figure('held').innerText()).toBe(formatCents(6_000));
    expect(await figure('fees').innerText()).toBe(formatCents(round * 1_500 + (round - 1) * 600));
    expect(await figure('paid-out').innerText()).toBe(formatCents(0));
    expect(await figure('payouts').innerText()).toBe(financeTexts.payoutCounts(0, 0));
    expect(await figure('refunded').innerText()).toBe(formatCents(0));
    await expectText(page, financeTexts.balanced);
    const problem = page.getByRole('list', { name: financeTexts.problemsTitle }).getByRole('listitem');
    expect(await problem.count()).toBe(1);
    const text = await problem.innerText();
    for (const shown of [disputed.product.productName, seller.name, protectionTexts.reasons['not-received'], 'Nobody came to the meeting.', formatCents(6_000)]) {
      expect(text).toContain(shown);
    }
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, `finance-${name}`, { fullPage: true });

    await problem.getByRole('button', { name: `${financeTexts.release}: ${disputed.product.productName}` }).click();
    const dialog = page.getByRole('dialog', { name: financeTexts.confirmRelease.title(formatCents(6_000), seller.name) });
    await dialog.waitFor();
    await checkPage(page, `finance-confirm-release-${name}`, { fullPage: false });
    await dialog.getByRole('button', { name: financeTexts.confirmRelease.confirm }).click();
    await expectText(page, ledgerMessages.problemReleased);

    await expectText(page, financeTexts.noProblems);
    await expect.poll(() => figure('held').innerText()).toBe(formatCents(0));
    expect(await figure('fees').innerText()).toBe(formatCents(round * 2_100));
    await expectText(page, financeTexts.balanced);
  });
});
