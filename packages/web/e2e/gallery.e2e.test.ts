import { productPageTexts } from '@furniture/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../server/src/demo/demo-data.ts';
import { checkPage, setupBrowser, setupSessions } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';

/** The product page's photos on a phone: swipe, zoom and full screen. */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);
const PHONE = { width: 375, height: 800 };
const PIECE = 'Reading armchair';

beforeAll(async () => {
  await loadDemoData(market.db, market.url);
});

async function openPiece(page: Page) {
  await page.goto('/search?location=Chattogram');
  await page.getByTestId('product-card').filter({ hasText: PIECE }).getByRole('link').first().click();
  await page.getByRole('heading', { name: PIECE }).waitFor();
}

/** Drags one pointer across the element horizontally by `dx` pixels, as a swipe does. */
async function drag(page: Page, selector: string, dx: number) {
  const box = (await page.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + box.width / 2 - dx / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

/** The full-screen photo's width, as a multiple of the screen's. */
const photoZoom = (page: Page) =>
  page.getByRole('dialog').getByRole('img').evaluate((image) => image.getBoundingClientRect().width / image.parentElement!.clientWidth);

describe('the photo gallery', () => {
  it('opens full screen with a tap, swipes between photos, zooms by double tap and buttons, and closes with Escape', async () => {
    const { page, pageErrors } = await open(PHONE);
    await openPiece(page);
    // A swipe on the page's photo moves to the next one and does not open the full-screen view.
    await drag(page, '[data-testid="gallery"] img', -120);
    await page.getByRole('group', { name: `${PIECE}: ${productPageTexts.photoOf(2, 2)}` }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page.getByTestId('gallery').getByRole('img').click();
    const viewer = page.getByRole('dialog', { name: `${PIECE}: ${productPageTexts.photoOf(2, 2)}` });
    await viewer.waitFor();
    expect(await photoZoom(page)).toBe(1);
    await checkPage(page, 'gallery-full-screen-phone', { fullPage: false });

    await drag(page, '[data-testid="photo-viewer-frame"]', 120);
    await page.getByRole('dialog', { name: `${PIECE}: ${productPageTexts.photoOf(1, 2)}` }).waitFor();

    await page.getByTestId('photo-viewer-frame').dblclick();
    await expect.poll(() => photoZoom(page)).toBeGreaterThan(2);
    await page.getByRole('button', { name: productPageTexts.zoomOut }).click();
    await expect.poll(() => photoZoom(page)).toBe(1);
    await page.getByRole('button', { name: productPageTexts.zoomIn }).click();
    await expect.poll(() => photoZoom(page)).toBe(2);

    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Back on the page, at the photo the full-screen view last showed.
    await page.getByRole('group', { name: `${PIECE}: ${productPageTexts.photoOf(1, 2)}` }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('zooms with a two-finger pinch in the full-screen view', async () => {
    const { page, pageErrors } = await open(PHONE);
    await openPiece(page);
    await page.getByRole('button', { name: productPageTexts.viewFullScreen }).click();
    await page.getByRole('dialog').waitFor();
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: 187 - spread, y: 400, id: 1 }, { x: 187 + spread, y: 400, id: 2 }],
      });
    await touch('touchStart', 30);
    for (const spread of [45, 60, 75, 90]) await touch('touchMove', spread);
    await touch('touchEnd', 0);
    // The fingers moved three times as far apart: the photo is three times as wide.
    await expect.poll(() => photoZoom(page)).toBeGreaterThan(2.5);
    await page.getByRole('button', { name: productPageTexts.closeFullScreen }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
