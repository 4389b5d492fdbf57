import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactTexts } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { bookings } from '../db/schema/index.ts';
import { createBooking, createCategory, createProduct, createUser, createWish } from '../demo/factories.ts';

const t = setupTestApp();

/** A seller's advertised listing with a phone nobody else should be able to read. */
async function listing() {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true, phone: '01799999999' });
  return { seller, category, product };
}

describe('contact details of sellers', () => {
  it('are in no answer that carries a product, for anonymous callers and signed-in strangers alike', async () => {
    const { seller, category, product } = await listing();
    const buyer = await createUser(t.db, { password: null });
    await createWish(t.db, { buyerId: buyer.id, productId: product.id });
    const buyerHeaders = await bearer(t.app, buyer.id);
    const urls = [
      '/api/advertisement',
      `/api/products?categoryId=${category.id}`,
      `/api/products/${product.id}`,
      `/api/sellers/${seller.id}`,
    ];
    for (const url of urls) {
      for (const headers of [{}, buyerHeaders]) {
        const response = await t.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toContain(product.productName);
        expect(response.body, url).not.toContain(seller.email);
        expect(response.body, url).not.toContain('01799999999');
      }
    }
    // Category pages are for signed-in callers.
    const categoryPage = await t.app.inject({ method: 'GET', url: `/api/category/${category.id}`, headers: buyerHeaders });
    expect(categoryPage.json().products[0]).toMatchObject({ _id: product.id, sellerEmail: '', phone: '' });
    const wishes = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${buyer.email}`, headers: buyerHeaders });
    expect(wishes.json().data[0]).toMatchObject({ productId: product.id, sellerEmail: '', phone: '' });
  });

  it('are in the seller’s own list of products', async () => {
    const { seller, product } = await listing();
    const response = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${seller.email}`, headers: await bearer(t.app, seller.id) });
    expect(response.json().data).toEqual([expect.objectContaining({ _id: product.id, sellerEmail: seller.email, phone: '01799999999' })]);
  });
});

describe('GET /api/products/{id}/contact', () => {
  it('answers the seller’s e-mail and phone to the seller, an admin and a buyer who booked the piece', async () => {
    const { seller, product } = await listing();
    const buyer = await createUser(t.db, { password: null });
    await createBooking(t.db, product, buyer.id);
    const admin = await createUser(t.db, { role: 'admin', password: null });
    for (const caller of [seller, admin, buyer]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/contact`, headers: await bearer(t.app, caller.id) });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ sellerName: seller.name, sellerEmail: seller.email, phone: '01799999999' });
    }
  });

  it('refuses a buyer whose booking was declined, cancelled, or closed more than 30 days ago', async () => {
    const { product } = await listing();
    const cases = [
      { status: 'cancelled', daysAgo: 0, allowed: false },
      { status: 'declined', daysAgo: 0, allowed: false },
      { status: 'closed', daysAgo: 31, allowed: false },
      { status: 'closed', daysAgo: 29, allowed: true },
      { status: 'accepted', daysAgo: 90, allowed: true },
      { status: 'paid', daysAgo: 90, allowed: true },
    ] as const;
    for (const { status, daysAgo, allowed } of cases) {
      const buyer = await createUser(t.db, { password: null });
      const booking = await createBooking(t.db, product, buyer.id, { status });
      await t.db
        .update(bookings)
        .set({ statusChangedAt: new Date(Date.now() - daysAgo * 24 * 3600 * 1000) })
        .where(eq(bookings.id, booking.id));
      const response = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/contact`, headers: await bearer(t.app, buyer.id) });
      expect(response.statusCode, `${status} ${daysAgo} days ago`).toBe(allowed ? 200 : 403);
    }
  });

  it('refuses anyone else: 401 signed out, 403 for a stranger, 404 for no such product', async () => {
    const { product } = await listing();
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/contact` })).statusCode).toBe(401);
    const stranger = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    const refused = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}/contact`, headers: stranger });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(contactTexts.notAllowed);
    const missing = await t.app.inject({ method: 'GET', url: '/api/products/00000000-0000-4000-8000-000000000000/contact', headers: stranger });
    expect(missing.statusCode).toBe(404);
  });
});
