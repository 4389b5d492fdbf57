import { labels, locationTexts, searchTexts } from '@furniture/contract';
import type { Page, Request } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, waitForNetworkIdle, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { sidewaysOverflow } from './support/ui.ts';

/** A journey with a map and accessibility checks, on two cores busy with other test files. */
const JOURNEY_MS = 120_000;
/** Where the browser says the person is: central Dhaka (the gazetteer's point of the town). */
const DHAKA = { latitude: 23.7104, longitude: 90.40744 };

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;
let nearbyId: string;

beforeAll(async () => {
  const seller = await createUser(market.db, { role: 'seller', name: 'Karim Hossain', verified: true });
  const tables = await createCategory(market.db, { categoryName: 'Tables' });
  const piece = (productName: string, location: string) =>
    createProduct(market.db, { categoryId: tables.id, sellerId: seller.id }, { productName, location, resalePrice: '120.00' });
  // Listed far first, so that newest first would put the far ones first.
  await piece('Chittagong dining table', 'Agrabad, Chittagong');
  await piece('Narayanganj side table', 'Narayanganj');
  nearbyId = (await piece('Dhaka desk table', 'Gulshan, Dhaka')).id;
  await piece('Dhaka coffee table', 'Banani, Dhaka');
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

/** How long a step may wait on two cores busy with other test files. */
const STEP_MS = 30_000;

/** A fresh browser profile, patient as the busy machine needs. */
async function openPatientSession(viewport?: { width: number; height: number }) {
  const opened = await openSession(chromium.browser, market.url, viewport);
  opened.context.setDefaultTimeout(STEP_MS);
  return opened;
}

/** Opens a page and waits until the app has taken it over from the server's HTML (its requests settled). */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await waitForNetworkIdle(page, STEP_MS);
}

const cards = (page: Page) => page.getByTestId('product-card');
const cardNames = (page: Page) => cards(page).getByRole('heading').allTextContents();

async function openLocationPanel(page: Page) {
  await page.getByRole('button', { name: new RegExp(`^${locationTexts.openControl}`) }).click();
  return page.getByRole('dialog', { name: locationTexts.panelTitle });
}

/** Requests of the page for Leaflet's code (the map's chunk brings it). */
function leafletRequests(page: Page): Request[] {
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (/leaflet|results-map|base-map/i.test(new URL(request.url()).pathname)) asked.push(request);
  });
  return asked;
}

describe('near me', () => {
  it('“Use my location” searches around the browser’s point, nearest first with “km away”, and is remembered on the device', async () => {
    session = await openPatientSession();
    const { page, context } = session;
    await context.grantPermissions(['geolocation'], { origin: market.url });
    await context.setGeolocation(DHAKA);
    await visit(page, '/');
    const panel = await openLocationPanel(page);
    await checkPage(page, 'near-me-panel');
    await panel.getByRole('button', { name: locationTexts.useMyLocation }).click();

    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('sort') === 'distance');
    const url = new URL(page.url());
    expect(url.searchParams.get('near')).toBe('23.7104,90.4074');
    expect(url.searchParams.get('radiusKm')).toBe('25');
    // The two Dhaka pieces share their town's point (a tie, in either order), then Narayanganj's.
    await expect.poll(async () => (await cardNames(page)).length, { timeout: STEP_MS }).toBe(3);
    const names = await cardNames(page);
    expect(names.slice(0, 2).sort()).toEqual(['Dhaka coffee table', 'Dhaka desk table']);
    expect(names[2]).toBe('Narayanganj side table');
    const distances = await cards(page).getByText(/km away$/).allTextContents();
    expect(distances).toHaveLength(3);
    const km = distances.map((text) => Number(text.replace(' km away', '')));
    expect(km).toEqual([...km].sort((a, b) => a - b));
    expect(km[2]).toBeGreaterThan(5);
    await page.getByRole('button', { name: locationTexts.near(locationTexts.myLocation, 25), exact: false }).waitFor();
    await checkPage(page, 'near-me-results');

    // The product page says how far the piece is, and shows its area on a map loaded then.
    await visit(page, `/product/${nearbyId}`);
    await page.getByTestId('product-distance').filter({ hasText: /km away$/ }).waitFor();
    await page.getByRole('heading', { name: locationTexts.areaTitle }).scrollIntoViewIfNeeded();
    await page.getByTestId('area-map').locator('path.area-circle').waitFor();
    await checkPage(page, 'near-me-product');

    // A new search from the navbar keeps the remembered place.
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).fill('table');
    await page.getByRole('searchbox', { name: searchTexts.searchLabel }).press('Enter');
    await page.waitForURL((next) => next.searchParams.get('q') === 'table' && next.searchParams.get('near') === '23.7104,90.4074');
    await expect.poll(() => cards(page).count(), { timeout: STEP_MS }).toBe(3);
  }, JOURNEY_MS);

  it('leaves no error behind when the product page is left while its area map’s outlines still load', async () => {
    session = await openPatientSession();
    const { page } = session;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/countries-110m/, async (route) => {
      await released;
      await route.continue();
    });
    const outlinesAsked = page.waitForRequest(/countries-110m/);
    await page.goto(`/product/${nearbyId}`);
    // A visitor's first touch starts the app, which shows the map.
    await page.getByRole('heading', { name: locationTexts.areaTitle }).click();
    const outlines = (await outlinesAsked).url();

    await page.getByRole('banner').getByRole('link', { name: labels.nav.home, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    release();
    // The outlines' module is the page's own: once it has loaded here, the map's wait for it is over too.
    // (A string: a function here would have its import rewritten for Node.)
    await page.evaluate(`import(${JSON.stringify(outlines)}).then(() => true)`);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  });

  it('draws a visitor’s product page map when they scroll to it with the mouse wheel alone', async () => {
    session = await openPatientSession();
    const { page } = session;
    await page.goto(`/product/${nearbyId}`);
    await page.getByRole('heading', { name: locationTexts.areaTitle }).waitFor();
    // Over the page, away from any control: nothing is pressed or focused.
    await page.mouse.move(5, 300);
    await page.mouse.wheel(0, 600);
    await page.getByTestId('area-map').locator('path.area-circle').waitFor();
  });

  it('says so in plain words when the browser does not share the location', { timeout: JOURNEY_MS }, async () => {
    session = await openPatientSession();
    const { page, context } = session;
    await context.clearPermissions();
    await visit(page, '/search');
    const panel = await openLocationPanel(page);
    await panel.getByRole('button', { name: locationTexts.useMyLocation }).click();
    await expect.poll(() => panel.getByRole('alert').textContent(), { timeout: STEP_MS }).toBe(locationTexts.denied);
    expect(new URL(page.url()).searchParams.has('near')).toBe(false);
  });

  it('picks a typed town from suggestions with the keyboard, named with its country', async () => {
    session = await openPatientSession();
    const { page } = session;
    await visit(page, '/search');
    const panel = await openLocationPanel(page);
    const field = panel.getByRole('combobox', { name: locationTexts.placeLabel });
    await field.fill('Chittag');
    await panel.getByRole('option', { name: 'Chittagong, Bangladesh' }).waitFor();
    await field.press('ArrowDown');
    const active = await field.getAttribute('aria-activedescendant');
    expect(active).toBeTruthy();
    expect(await page.locator(`[id="${active}"]`).textContent()).toBe('Chittagong, Bangladesh');
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    await checkPage(page, 'near-me-suggestions');
    await field.press('Enter');
    expect(await field.inputValue()).toBe('Chittagong, Bangladesh');
    await panel.getByRole('button', { name: locationTexts.apply }).click();
    await page.waitForURL((url) => url.searchParams.has('nearPlace'));
    await expect.poll(() => cardNames(page), { timeout: STEP_MS }).toEqual(['Chittagong dining table']);
    // The place lives in the URL: opened again, the panel holds it.
    const again = await openLocationPanel(page);
    expect(await again.getByRole('combobox', { name: locationTexts.placeLabel }).inputValue()).toBe('Chittagong');
  }, JOURNEY_MS);

  for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 740 }]) {
    it(`at ${viewport.width} px, the map shows the results and moving it searches the area it shows`, async () => {
      session = await openPatientSession(viewport);
      const { page } = session;
      const asked = leafletRequests(page);
      await visit(page, `/search?near=${DHAKA.latitude},${DHAKA.longitude}&radiusKm=500`);
      await expect.poll(() => cards(page).count(), { timeout: STEP_MS }).toBe(4);
      await checkPage(page, `near-me-list-${viewport.width}`);
      expect(asked).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);

      await page.getByRole('button', { name: locationTexts.map, exact: true }).click();
      const map = page.getByTestId('results-map');
      // Dhaka's two pieces share a point: drawn as one numbered circle (with Narayanganj's, 14 km off, when zoomed out).
      await map.locator('.results-map-cluster').first().waitFor();
      const circled = (await map.locator('.results-map-cluster').allTextContents()).map(Number);
      const single = await map.locator('.results-map-marker').count();
      expect(circled.every((count) => count >= 2)).toBe(true);
      expect(circled.reduce((sum, count) => sum + count, 0) + single).toBe(4);
      // Chittagong's, 200 km off, stands alone.
      expect(await map.getByRole('button', { name: 'Chittagong dining table, $120' }).count()).toBe(1);
      expect(asked.length).toBeGreaterThan(0);
      await checkPage(page, `near-me-map-${viewport.width}`);

      // The arrow keys move a focused Leaflet map, as dragging does; the area it then shows is searched.
      const searchedBoxes: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/products' && url.searchParams.has('bbox')) searchedBoxes.push(url.searchParams.get('bbox')!);
      });
      await map.focus();
      for (let step = 0; step < 3; step++) await map.press('ArrowLeft');
      await page.waitForURL((url) => url.searchParams.has('bbox') && !url.searchParams.has('near'));
      await waitForNetworkIdle(page, STEP_MS);
      const bbox = new URL(page.url()).searchParams.get('bbox')!;
      expect(searchedBoxes).toContain(bbox);
      const [minLon, minLat, maxLon, maxLat] = bbox.split(',').map(Number);
      // The map moved west of where it opened (around every piece: Dhaka to Chittagong, 90.4 to 91.8 degrees east).
      expect(minLon).toBeLessThan(90.3);
      const inside = (lat: number, lon: number) => lat >= minLat! && lat <= maxLat! && lon >= minLon! && lon <= maxLon!;
      const expected = [
        ['Dhaka coffee table', 23.71, 90.41],
        ['Dhaka desk table', 23.71, 90.41],
        ['Narayanganj side table', 23.62, 90.5],
        ['Chittagong dining table', 22.34, 91.84],
      ].filter(([, lat, lon]) => inside(lat as number, lon as number)).length;
      await page.getByRole('button', { name: locationTexts.list, exact: true }).click();
      await expect.poll(() => cards(page).count(), { timeout: STEP_MS }).toBe(expected);
      await page.getByRole('button', { name: new RegExp(`^${locationTexts.openControl}: ${locationTexts.mapArea}`) }).waitFor();
    }, JOURNEY_MS);
  }

  it('at 375 px, the location control is in the bar and its panel fits the screen', { timeout: JOURNEY_MS }, async () => {
    session = await openPatientSession({ width: 375, height: 740 });
    const { page } = session;
    await visit(page, '/');
    const panel = await openLocationPanel(page);
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, 'near-me-panel-375');
  });
});
