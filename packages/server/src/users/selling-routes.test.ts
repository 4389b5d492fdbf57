import { describe, expect, it } from 'vitest';
import { capabilityTexts, serverMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createCategory, createProduct, createUser, createWish } from '../demo/factories.ts';

/** One account buys and sells (decision 37): routes let in whoever holds their capability. */
const t = setupTestApp();

async function pieceOfNewSeller() {
  const seller = await createUser(t.db, { role: 'seller' });
  const category = await createCategory(t.db);
  return { seller, product: await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }) };
}

describe('POST /api/me/selling', () => {
  it('lets a buyer sell at once, with the same token, keeping their orders and wishes; asking again changes nothing', async () => {
    const buyer = await createUser(t.db, { role: 'buyer' });
    const { product } = await pieceOfNewSeller();
    const booking = await createBooking(t.db, product, buyer.id);
    await createWish(t.db, { buyerId: buyer.id, productId: (await pieceOfNewSeller()).product.id });
    const headers = await bearer(t.app, buyer.id);

    const refused = await t.app.inject({ method: 'GET', url: '/api/seller/bookings', headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(capabilityTexts.onlyFor(['sell']));

    for (let time = 0; time < 2; time += 1) {
      const started = await t.app.inject({ method: 'POST', url: '/api/me/selling', headers });
      expect(started.statusCode).toBe(200);
      expect(started.json()).toMatchObject({
        message: capabilityTexts.startSelling.started,
        data: { _id: buyer.id, userRole: 'seller', capabilities: ['buy', 'sell'] },
      });
    }

    expect((await t.app.inject({ method: 'GET', url: '/api/seller/bookings', headers })).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
    expect(me.json().data).toMatchObject({ userRole: 'seller', capabilities: ['buy', 'sell'] });
    const orders = await t.app.inject({ method: 'GET', url: `/api/booking?email=${buyer.email}`, headers });
    expect(orders.json().data.map((order: { _id: string }) => order._id)).toEqual([booking.id]);
    const wishes = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${buyer.email}`, headers });
    expect(wishes.json().data).toHaveLength(1);
  });

  it('keeps an admin an admin who can now sell too', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const started = await t.app.inject({ method: 'POST', url: '/api/me/selling', headers: await bearer(t.app, admin.id) });
    expect(started.json().data).toMatchObject({ userRole: 'admin', capabilities: ['admin', 'sell'] });
  });
});

describe('capabilities guard the routes', () => {
  it('lets a seller wish for and book another seller’s piece, but not their own', async () => {
    const { seller, product: own } = await pieceOfNewSeller();
    const { product: other } = await pieceOfNewSeller();
    const headers = await bearer(t.app, seller.id);

    const wished = await t.app.inject({ method: 'POST', url: '/api/addWish', headers, payload: { productId: other.id } });
    expect(wished.statusCode).toBe(201);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers,
      payload: { productId: other.id, phoneNumber: '01712345678', location: 'Gulshan' },
    });
    expect(booked.statusCode).toBe(201);

    const ownBooking = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers,
      payload: { productId: own.id, phoneNumber: '01712345678', location: 'Gulshan' },
    });
    expect(ownBooking.statusCode).toBe(403);
    expect(ownBooking.json().message).toBe(serverMessages.products.notYours('book'));
    const ownThread = await t.app.inject({ method: 'POST', url: '/api/conversations', headers, payload: { productId: own.id } });
    expect(ownThread.statusCode).toBe(403);
    expect(ownThread.json().message).toBe(serverMessages.products.notYours('ask about'));
  });

  it('keeps a buyer made admin in reach of her orders and their payment', async () => {
    const buyer = await createUser(t.db, { role: 'buyer' });
    const { product } = await pieceOfNewSeller();
    const booking = await createBooking(t.db, product, buyer.id, { status: 'accepted' });
    const admin = await createUser(t.db, { role: 'admin' });
    const promoted = await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${buyer.email}`, headers: await bearer(t.app, admin.id) });
    expect(promoted.statusCode).toBe(200);

    const headers = await bearer(t.app, buyer.id);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
    expect(me.json().data).toMatchObject({ userRole: 'admin', capabilities: ['buy', 'admin'] });
    const orders = await t.app.inject({ method: 'GET', url: `/api/booking?email=${buyer.email}`, headers });
    expect(orders.json().data.map((order: { _id: string }) => order._id)).toEqual([booking.id]);
    expect((await t.app.inject({ method: 'GET', url: `/api/dashboard/payment/${booking.id}`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/allSeller', headers })).statusCode).toBe(200);
  });

  it('refuses buying to an admin who does not buy, saying who can', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    const { product } = await pieceOfNewSeller();
    const refused = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: await bearer(t.app, admin.id), payload: { productId: product.id } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(capabilityTexts.onlyFor(['buy']));
  });
});
