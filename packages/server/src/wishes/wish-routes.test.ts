import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { capabilityTexts, messages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { racingASale } from '../../test/database.ts';
import { createCategory, createProduct, createUser, createWish } from '../demo/factories.ts';
import { products, wishes } from '../db/schema/index.ts';

const t = setupTestApp();

async function listedProduct(overrides: Parameters<typeof createProduct>[2] = {}) {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  return createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, overrides);
}

const buyer = () => createUser(t.db, { password: null });

describe('POST /api/addWish', () => {
  it('adds the product to the caller’s wish list, taking every field from the account and the product', async () => {
    const product = await listedProduct({ resalePrice: '99.00', productName: 'Pine bench' });
    const me = await buyer();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addWish',
      headers: await bearer(t.app, me.id),
      // The specification's wish payload; only productId is believed.
      payload: { name: 'Mallory', email: 'mallory@example.com', productId: product.id, resalePrice: 1, productName: 'Free stuff', productImage: 'x', inStock: 'available' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Pine bench is added to your wish list',
      data: { productId: product.id, productName: 'Pine bench', resalePrice: 99, productImage: product.productImage, inStock: 'available' },
    });
    const [row] = await t.db.select().from(wishes).where(eq(wishes.id, response.json().data._id));
    expect(row).toMatchObject({ buyerId: me.id, productId: product.id });
  });

  it('refuses the same product twice with 409 and a clear message', async () => {
    const product = await listedProduct();
    const me = await buyer();
    await createWish(t.db, { buyerId: me.id, productId: product.id });
    const response = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, me.id), payload: { productId: product.id } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'This product is already in your wish list' });
  });

  it('refuses a product that is no longer available with 409', async () => {
    const product = await listedProduct({ inStock: 'sold' });
    const me = await buyer();
    const response = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, me.id), payload: { productId: product.id } });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This product is no longer available');
  });

  it('refuses a product of the caller’s own with 403', async () => {
    const me = await buyer();
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: me.id });
    const response = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, me.id), payload: { productId: product.id } });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You cannot wish for your own product');
  });

  it('answers 404 for an unknown product and 400 for a missing or malformed productId', async () => {
    const me = await buyer();
    const headers = await bearer(t.app, me.id);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/addWish', headers, payload: { productId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No product with this id');
    const missing = await t.app.inject({ method: 'POST', url: '/api/addWish', headers, payload: { name: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('productId');
    const malformed = await t.app.inject({ method: 'POST', url: '/api/addWish', headers, payload: { productId: 42 } });
    expect(malformed.statusCode).toBe(400);
  });

  it('answers 401 without a token and 403 to an admin, who does not buy', async () => {
    const product = await listedProduct();
    expect((await t.app.inject({ method: 'POST', url: '/api/addWish', payload: { productId: product.id } })).statusCode).toBe(401);
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, admin.id), payload: { productId: product.id } });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(capabilityTexts.onlyFor(['buy']));
  });
});

describe('POST /api/addWish from many buyers at once', () => {
  it('keeps every one of 50 wishes for one product sent at the same moment', async () => {
    const product = await listedProduct();
    const buyers = await Promise.all(Array.from({ length: 50 }, () => buyer()));
    const responses = await Promise.all(
      buyers.map(async (person) =>
        t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, person.id), payload: { productId: product.id } }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(201));
    const kept = await t.db.select({ id: wishes.id, buyerId: wishes.buyerId }).from(wishes).where(eq(wishes.productId, product.id));
    expect(kept.map((row) => row.id).sort()).toEqual(responses.map((response) => response.json().data._id).sort());
    expect(kept.map((row) => row.buyerId).sort()).toEqual(buyers.map((person) => person.id).sort());
  });
});

describe('POST /api/addWish racing a sale', () => {
  it('refuses with 409 a product sold while the wish waited for it, and keeps no wish', async () => {
    const product = await listedProduct();
    const me = await buyer();
    const headers = await bearer(t.app, me.id);
    const response = await racingASale(t.db, product.id, () => t.app.inject({ method: 'POST', url: '/api/addWish', headers, payload: { productId: product.id } }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This product is no longer available');
    expect(await t.db.select().from(wishes).where(eq(wishes.productId, product.id))).toEqual([]);
  });
});

describe('GET /api/wishes', () => {
  it('lists the caller’s wishes in the product’s shape, newest first, sold products included', async () => {
    const me = await buyer();
    const first = await listedProduct();
    const second = await listedProduct();
    const firstWish = await createWish(t.db, { buyerId: me.id, productId: first.id });
    const secondWish = await createWish(t.db, { buyerId: me.id, productId: second.id });
    await t.db.update(wishes).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(wishes.id, firstWish.id));
    await createWish(t.db, { buyerId: (await buyer()).id, productId: first.id });
    await t.db.update(products).set({ inStock: 'sold', state: 'sold' }).where(eq(products.id, second.id));

    const response = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${me.email}`, headers: await bearer(t.app, me.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((w: { _id: string; productId: string; inStock: string }) => [w._id, w.productId, w.inStock])).toEqual([
      [secondWish.id, second.id, 'sold'],
      [firstWish.id, first.id, 'available'],
    ]);
    expect(response.json().data[0]).toMatchObject({ productName: second.productName, sellerEmail: '', postedDate: expect.any(String) });
  });

  it('refuses another buyer’s e-mail with 403, and lets an admin read it', async () => {
    const me = await buyer();
    const other = await buyer();
    await createWish(t.db, { buyerId: other.id, productId: (await listedProduct()).id });
    const refused = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${other.email}`, headers: await bearer(t.app, me.id) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: 'You can only see your own wishes' });

    const admin = await createUser(t.db, { role: 'admin', password: null });
    const allowed = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${other.email}`, headers: await bearer(t.app, admin.id) });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().data).toHaveLength(1);
  });

  it('pages the list', async () => {
    const me = await buyer();
    for (let i = 0; i < 3; i++) await createWish(t.db, { buyerId: me.id, productId: (await listedProduct()).id });
    const headers = await bearer(t.app, me.id);
    const page = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${me.email}&limit=2&page=2`, headers });
    expect(page.json().data).toHaveLength(1);
  });
});

describe('DELETE /api/wishDelete', () => {
  it('removes one of the caller’s wishes', async () => {
    const me = await buyer();
    const wish = await createWish(t.db, { buyerId: me.id, productId: (await listedProduct()).id });
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/wishDelete?id=${wish.id}`,
      headers: await bearer(t.app, me.id),
      payload: { buyerEmail: me.email },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deletedCount: 1, message: messages.productDeleted });
    expect(await t.db.select().from(wishes).where(eq(wishes.id, wish.id))).toEqual([]);
  });

  it('answers 404 for another buyer’s wish, whatever buyerEmail says, and leaves it', async () => {
    const me = await buyer();
    const other = await buyer();
    const wish = await createWish(t.db, { buyerId: other.id, productId: (await listedProduct()).id });
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/wishDelete?id=${wish.id}`,
      headers: await bearer(t.app, me.id),
      payload: { buyerEmail: other.email },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: 'No wish with this id in your wish list' });
    expect(await t.db.select().from(wishes).where(eq(wishes.id, wish.id))).toHaveLength(1);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const headers = await bearer(t.app, (await buyer()).id);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/wishDelete?id=00000000-0000-4000-8000-000000000000', headers })).statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'DELETE', url: '/api/wishDelete?id=abc', headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('id: must be a valid id');
  });
});
