import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createCategory, createProduct, createUser, createWish } from '../demo/factories.ts';

const t = setupTestApp();

describe('GET /api/me/product-marks', () => {
  it('answers the ids of the products the caller wished for and booked, and nobody else’s', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const refs = { categoryId: category.id, sellerId: seller.id };
    const [wished, booked, both, othersOnly] = await Promise.all([1, 2, 3, 4].map(() => createProduct(t.db, refs)));
    const me = await createUser(t.db, { password: null });
    const someoneElse = await createUser(t.db, { password: null });
    await createWish(t.db, { buyerId: me.id, productId: wished!.id });
    await createWish(t.db, { buyerId: me.id, productId: both!.id });
    await createBooking(t.db, booked!, me.id);
    await createBooking(t.db, both!, me.id);
    await createWish(t.db, { buyerId: someoneElse.id, productId: othersOnly!.id });
    await createBooking(t.db, othersOnly!, someoneElse.id);

    const response = await t.app.inject({ method: 'GET', url: '/api/me/product-marks', headers: await bearer(t.app, me.id) });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.wishedProductIds.sort()).toEqual([wished!.id, both!.id].sort());
    expect(data.bookedProductIds.sort()).toEqual([booked!.id, both!.id].sort());
  });

  it('answers the caller’s own listings, which cards offer no Wish or Book Now on', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const own = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const response = await t.app.inject({ method: 'GET', url: '/api/me/product-marks', headers: await bearer(t.app, seller.id) });
    expect(response.json().data.ownProductIds).toEqual([own.id]);
  });

  it('answers empty lists to an account with no wishes or bookings', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const response = await t.app.inject({ method: 'GET', url: '/api/me/product-marks', headers: await bearer(t.app, seller.id) });
    expect(response.json()).toEqual({ success: true, data: { wishedProductIds: [], bookedProductIds: [], ownProductIds: [] } });
  });

  it('asks a visitor to sign in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/me/product-marks' });
    expect(response.statusCode).toBe(401);
  });
});
