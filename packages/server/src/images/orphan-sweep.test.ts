import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { jpegImage, multipartPayload } from '../../test/images.ts';
import { createBooking, createCategory, createProduct, createUser } from '../demo/factories.ts';
import { images, users } from '../db/schema/index.ts';
import { sweepOrphanImages } from './image-repository.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-sweep-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const t = setupTestApp({ dataDir });

async function uploadAs(userId: string): Promise<{ url: string; thumbnailUrl: string }> {
  const { payload, headers } = await multipartPayload({}, [{ data: await jpegImage(600, 400) }]);
  const response = await t.app.inject({ method: 'POST', url: '/api/images', payload, headers: { ...headers, ...(await bearer(t.app, userId)) } });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

const fileExists = (url: string) => fs.existsSync(path.join(dataDir, new URL(url).pathname));

async function age(urls: string[], hours: number) {
  await t.db
    .update(images)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(inArray(images.url, urls));
}

const sweep = () => sweepOrphanImages(t.db, t.app.imageStore, { graceSeconds: 60 * 60, batchSize: 100 });

describe('sweepOrphanImages', () => {
  it('removes old images nothing refers to, with their thumbnails, and keeps every referenced or recent one', async () => {
    await sweep(); // start from a clean slate
    const seller = await createUser(t.db, { role: 'seller' });
    const [orphan, recent, userPhoto, categoryImage, productImage, bookingImage] = await Promise.all(
      Array.from({ length: 6 }, () => uploadAs(seller.id)),
    );

    await t.db.update(users).set({ image: userPhoto!.url }).where(eq(users.id, seller.id));
    const category = await createCategory(t.db, { image: categoryImage!.url });
    await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productImage: productImage!.url });
    // A booking keeps its own copy of the product image, which outlives the product.
    const buyer = await createUser(t.db);
    const other = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productImage: bookingImage!.url });
    await createBooking(t.db, other, buyer.id);
    await t.db.execute(sql`update products set product_image = 'https://elsewhere.example.com/x.webp' where id = ${other.id}`);

    await age([orphan, userPhoto, categoryImage, productImage, bookingImage].map((image) => image!.url), 2);

    const removed = await sweep();
    expect(removed).toEqual([new URL(orphan!.url).pathname.slice(1)]);
    expect(fileExists(orphan!.url)).toBe(false);
    expect(fileExists(orphan!.thumbnailUrl)).toBe(false);
    expect(await t.db.select().from(images).where(eq(images.url, orphan!.url))).toEqual([]);

    for (const kept of [recent, userPhoto, categoryImage, productImage, bookingImage]) {
      expect(fileExists(kept!.url)).toBe(true);
      expect(fileExists(kept!.thumbnailUrl)).toBe(true);
      expect(await t.db.select().from(images).where(eq(images.url, kept!.url))).toHaveLength(1);
    }
  });

  it('removes a product’s image once the product is deleted', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const image = await uploadAs(seller.id);
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productImage: image.url });
    await age([image.url], 3);
    expect(await sweep()).toEqual([]);

    await t.db.execute(sql`delete from products where id = ${product.id}`);
    expect(await sweep()).toEqual([new URL(image.url).pathname.slice(1)]);
    expect(fileExists(image.url)).toBe(false);
  });

  it('lets concurrent sweeps on several servers each take an image at most once', async () => {
    const user = await createUser(t.db);
    const uploaded = await Promise.all(Array.from({ length: 4 }, () => uploadAs(user.id)));
    await age(uploaded.map((image) => image.url), 2);
    const runs = await Promise.all([sweep(), sweep(), sweep()]);
    const removed = runs.flat();
    expect(new Set(removed).size).toBe(removed.length);
    expect(removed.sort()).toEqual(uploaded.map((image) => new URL(image.url).pathname.slice(1)).sort());
    for (const image of uploaded) expect(fileExists(image.url)).toBe(false);
  });
});
