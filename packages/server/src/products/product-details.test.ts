import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { productPageTexts, type ProductDetails } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { products } from '../db/schema/index.ts';

const t = setupTestApp();

/** The product as an admin hid it. */
const hidden = async (product: { id: string }) => {
  const [row] = await t.db.update(products).set({ moderation: 'hidden', moderationReason: 'Copied photos', moderatedAt: new Date() }).where(eq(products.id, product.id)).returning();
  return row!;
};

const get = (id: string) => t.app.inject({ method: 'GET', url: `/api/products/${id}` });

describe('GET /api/products/{id}', () => {
  it('answers the product with its photos, measurements, category and the seller’s public profile', async () => {
    const seller = await createUser(t.db, { role: 'seller', verified: true, password: null, name: 'Nadia Islam' });
    const category = await createCategory(t.db, { categoryName: 'Wardrobes' });
    const refs = { categoryId: category.id, sellerId: seller.id };
    const photos = ['https://images.example.com/a.webp', 'https://images.example.com/b.webp'];
    const product = await createProduct(t.db, refs, { photos, measurements: { widthCm: 120, depthCm: 60, heightCm: 200 } });
    await createProduct(t.db, refs, { inStock: 'sold' });
    await createProduct(t.db, refs, { inStock: 'sold' });

    const response = await get(product.id);
    expect(response.statusCode).toBe(200);
    const data: ProductDetails = response.json().data;
    expect(data).toMatchObject({
      _id: product.id,
      productImage: photos[0],
      photos,
      measurements: { widthCm: 120, depthCm: 60, heightCm: 200 },
      category: { _id: category.id, categoryName: 'Wardrobes' },
      seller: { _id: seller.id, name: 'Nadia Islam', image: seller.image, verified: true, itemsSold: 2, rating: null, reviewCount: 0 },
    });
    expect(data.seller.memberSince).toBe(seller.createdAt.toISOString());
    expect(Object.keys(data.seller).sort()).toEqual(['_id', 'image', 'itemsSold', 'memberSince', 'name', 'rating', 'reviewCount', 'verified']);
  });

  it('suggests up to six available pieces of the same category, closest in price', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const other = await createCategory(t.db);
    const refs = { categoryId: category.id, sellerId: seller.id };
    const product = await createProduct(t.db, refs, { resalePrice: '100.00' });
    const byPrice: Record<string, string> = {};
    for (const price of [10, 60, 90, 95, 100, 104, 110, 150, 400]) {
      byPrice[(await createProduct(t.db, refs, { resalePrice: `${price}.00` })).id] = String(price);
    }
    await createProduct(t.db, refs, { resalePrice: '100.00', inStock: 'sold' });
    await createProduct(t.db, { ...refs, categoryId: other.id }, { resalePrice: '100.00' });

    const data: ProductDetails = (await get(product.id)).json().data;
    expect(data.similar.map((item) => byPrice[item._id]).sort((a, b) => Number(a) - Number(b))).toEqual(['60', '90', '95', '100', '104', '110']);
    expect(data.similar.map((item) => item._id)).not.toContain(product.id);
  });

  it('answers 410 for a listing that is no longer public, with its name and similar pieces on sale', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const owner = { categoryId: category.id, sellerId: seller.id };
    const onSale = await createProduct(t.db, owner, { productName: 'Walnut desk', resalePrice: '120.00' });
    for (const gone of [
      await hidden(await createProduct(t.db, owner, { productName: 'Hidden desk', resalePrice: '110.00' })),
      await createProduct(t.db, owner, { productName: 'Withdrawn desk', resalePrice: '110.00', state: 'withdrawn' }),
      await createProduct(t.db, owner, { productName: 'Expired desk', resalePrice: '110.00', state: 'expired' }),
    ]) {
      const response = await get(gone.id);
      expect(response.statusCode).toBe(410);
      expect(response.json()).toMatchObject({ success: false, message: productPageTexts.gone, data: { _id: gone.id, productName: gone.productName } });
      expect(response.json().data.similar.map((item: { _id: string }) => item._id)).toEqual([onSale.id]);
    }
  });

  it('shows a sold piece as sold, and answers 404 for an unknown id and 400 for a malformed one', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const sold = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { inStock: 'sold' });
    expect((await get(sold.id)).json().data.inStock).toBe('sold');
    const unknown = await get('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No product with this id' });
    const malformed = await get('sofa');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^id/);
  });
});
