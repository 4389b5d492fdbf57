import { productPageTexts, searchTexts } from '@furniture/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../server/src/demo/demo-data.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { sidewaysOverflow } from './support/ui.ts';

/** A fresh install with its demo data, as a new visitor first meets it. */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);

beforeAll(async () => {
  await loadDemoData(market.db, market.url);
});

describe('the demo data of a first start', () => {
  it('answers "Will it fit?" with pieces that fit the space, on a phone', async () => {
    const { page, pageErrors } = await open({ width: 375, height: 800 });
    await page.goto('/search?spaceWidth=120&spaceDepth=70&spaceHeight=100');
    const cards = page.getByTestId('product-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBeGreaterThan(2);
    expect(await page.getByText(searchTexts.noResults).count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, 'first-start-will-it-fit-phone');
    expect(pageErrors).toEqual([]);
  });

  it('shows each piece with its measurements, several photos and its town', async () => {
    const { page, pageErrors } = await open();
    await page.goto('/search?location=Chattogram');
    await page.getByTestId('product-card').filter({ hasText: 'Reading armchair' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Reading armchair' }).waitFor();
    await page.getByText(productPageTexts.measurementsValue({ widthCm: 78, depthCm: 82, heightCm: 98 })).waitFor();
    expect(await page.getByRole('button', { name: /^Show photo \d+$/ }).count()).toBe(2);
    await page.getByText('Chattogram', { exact: true }).waitFor();
    await checkPage(page, 'first-start-product');
    expect(pageErrors).toEqual([]);
  });
});
