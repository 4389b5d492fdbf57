import { IMAGE_MAX_SIDE_PX, IMAGE_THUMBNAIL_SIDE_PX, type UploadedImage } from '@furniture/contract';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser } from '../../server/src/demo/factories.ts';
import { bearer } from '../../server/test/app.ts';
import { multipartPayload, solidImage } from '../../server/test/images.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { loadedWidth } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;
let productId: string;
let photos: UploadedImage[];

/** Uploads a photo larger than the largest stored width through POST /api/images. */
async function upload(authorization: Record<string, string>, background: { r: number; g: number; b: number }) {
  const { payload, headers } = await multipartPayload({}, [
    { data: await solidImage(2400, 1800, background).jpeg().toBuffer(), type: 'image/jpeg' },
  ]);
  const response = await fetch(`${market.url}/api/images`, { method: 'POST', headers: { ...authorization, ...headers }, body: payload });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: UploadedImage }).data;
}

beforeAll(async () => {
  const seller = await createUser(market.db, { role: 'seller', name: 'Karim Hossain', verified: true });
  const authorization = await bearer(market.app, seller.id);
  photos = [await upload(authorization, { r: 40, g: 90, b: 150 }), await upload(authorization, { r: 150, g: 90, b: 40 })];
  const category = await createCategory(market.db, { categoryName: 'Sofas', image: photos[1]!.url });
  const product = await createProduct(
    market.db,
    { categoryId: category.id, sellerId: seller.id },
    { productName: 'Velvet sofa', advertisement: true, photos: photos.map((photo) => photo.url) },
  );
  productId = product.id;
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

/** The candidates of an img's srcset: each address with the width it promises. */
function candidates(srcset: string | null): Array<{ url: string; width: number }> {
  return (srcset ?? '').split(',').map((candidate) => {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    return { url: url!, width: Number(descriptor!.replace(/w$/, '')) };
  });
}

describe('images', () => {
  it('offers an uploaded photo in each stored width, as WebP files of exactly those widths, sized before it loads', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/');
    const image = page.getByTestId('product-card').getByRole('img', { name: 'Velvet sofa' });
    await image.waitFor();

    expect(await image.getAttribute('width')).toBe('400');
    expect(await image.getAttribute('height')).toBe('300');
    expect(await image.getAttribute('loading')).toBe('lazy');
    expect(await image.getAttribute('sizes')).toBeTruthy();
    const offered = candidates(await image.getAttribute('srcset'));
    expect(offered).toEqual([
      { url: photos[0]!.thumbnailUrl, width: IMAGE_THUMBNAIL_SIDE_PX },
      { url: photos[0]!.url, width: IMAGE_MAX_SIDE_PX },
    ]);
    for (const candidate of offered) {
      const response = await fetch(candidate.url);
      expect(response.headers.get('content-type')).toBe('image/webp');
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([metadata.format, metadata.width]).toEqual(['webp', candidate.width]);
    }

    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => loadedWidth(image)).toBeGreaterThan(0);
    await checkPage(page, 'images-home-1280', { fullPage: true });
  });

  it('fetches the product page’s main photo first, and its small pictures from thumbnails', async () => {
    session = await openSession(chromium.browser, market.url, { width: 375, height: 812 });
    const { page } = session;
    await page.goto(`/product/${productId}`);
    const main = page.getByTestId('gallery').getByRole('img');
    await main.waitFor();

    expect(await main.getAttribute('fetchpriority')).toBe('high');
    expect(await main.getAttribute('loading')).toBeNull();
    expect(candidates(await main.getAttribute('srcset')).map((candidate) => candidate.url)).toEqual([
      photos[0]!.thumbnailUrl,
      photos[0]!.url,
    ]);
    await expect.poll(() => loadedWidth(main)).toBeGreaterThan(0);

    const strip = page.getByRole('button', { name: /Show photo/ }).locator('img');
    expect(await strip.evaluateAll((images) => images.map((image) => image.getAttribute('src')))).toEqual(
      photos.map((photo) => photo.thumbnailUrl),
    );
    await checkPage(page, 'images-product-375', { fullPage: true });
  });

  const pages = { Home: '/', 'a product page': 'product', search: '/search?q=sofa' } as const;
  it.each(
    Object.keys(pages).flatMap((name) => [375, 1280].map((width) => [name as keyof typeof pages, width] as const)),
  )('gives every picture on %s its width and height, %i px wide', async (name, width) => {
    session = await openSession(chromium.browser, market.url, { width, height: 850 });
    const { page } = session;
    const path = pages[name];
    await page.goto(path === 'product' ? `/product/${productId}` : path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await checkPage(page, `images-${name.replace(/ /g, '-')}-${width}`, { fullPage: true });
    const unsized = await page
      .locator('main img')
      .evaluateAll((images) => images.filter((image) => !image.getAttribute('width') || !image.getAttribute('height')).map((image) => image.outerHTML));
    expect(unsized).toEqual([]);
  });
});
