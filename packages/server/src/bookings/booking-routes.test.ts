import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, notificationTexts } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { racingASale } from '../../test/database.ts';
import { createBooking, createCategory, createPayment, createProduct, createUser } from '../demo/factories.ts';
import { bookings, liveEvents, notifications, products } from '../db/schema/index.ts';

const t = setupTestApp();

async function listedProduct(overrides: Parameters<typeof createProduct>[2] = {}) {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  return createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, overrides);
}

const buyer = (overrides: Parameters<typeof createUser>[1] = {}) => createUser(t.db, { password: null, ...overrides });

/** A booking sent as the form sends it: a phone number and a place, `details` changing any of the payload. */
const addBooking = (headers: Record<string, string>, productId: string | undefined, details: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/addBooking', headers, payload: { productId, phoneNumber: '01712345678', location: 'Mirpur', ...details } });

const bookingKeys = [
  '_id', 'buyerName', 'buyerEmail', 'productId', 'productName', 'productPrice', 'productImage', 'inStock', 'phoneNumber',
  'location', 'bookedAt', 'sellerName', 'sellerPhone', 'paymentStatus', 'transactionId', 'status', 'statusReason',
  'fundsState', 'releaseAt', 'problemOpen',
].sort();

describe('POST /api/addBooking', () => {
  it('books at the product’s price, for the account’s name and e-mail, whatever the request says', async () => {
    const product = await listedProduct({ resalePrice: '275.00', productName: 'Walnut desk' });
    const me = await buyer({ name: 'Rina Buyer' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: await bearer(t.app, me.id),
      // The specification's booking payload, as the category page sends it.
      payload: {
        buyerName: 'Mallory',
        buyerEmail: 'mallory@example.com',
        productName: 'Something cheaper',
        productPrice: 1,
        productImage: 'https://evil.example.com/x.png',
        inStock: 'available',
        phoneNumber: 1712345678,
        location: 'Banani 11',
        productId: product.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const { success, message, data } = response.json();
    expect(success).toBe(true);
    expect(message).toBe('Walnut desk is booked');
    expect(Object.keys(data).sort()).toEqual(bookingKeys);
    expect(data).toMatchObject({
      buyerName: 'Rina Buyer',
      buyerEmail: me.email,
      productId: product.id,
      productName: 'Walnut desk',
      productPrice: 275,
      productImage: product.productImage,
      inStock: 'available',
      phoneNumber: '1712345678',
      location: 'Banani 11',
      paymentStatus: 'unpaid',
      transactionId: null,
    });
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, data._id));
    expect(row).toMatchObject({ buyerId: me.id, productPrice: '275.00' });
  });

  it('refuses a second booking of the same product with 409 and a clear message', async () => {
    const product = await listedProduct();
    const me = await buyer();
    await createBooking(t.db, product, me.id);
    const response = await addBooking(await bearer(t.app, me.id), product.id, { location: 'Uttara' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'You have already booked this product' });
  });

  it('refuses a sold product with 409 and a product of the caller’s own with 403', async () => {
    const me = await buyer();
    const headers = await bearer(t.app, me.id);
    const sold = await listedProduct({ inStock: 'sold' });
    const soldResponse = await addBooking(headers, sold.id, { location: 'Uttara' });
    expect(soldResponse.statusCode).toBe(409);
    expect(soldResponse.json().message).toBe('This product is no longer available');

    const category = await createCategory(t.db);
    const mine = await createProduct(t.db, { categoryId: category.id, sellerId: me.id });
    const ownResponse = await addBooking(headers, mine.id, { location: 'Uttara' });
    expect(ownResponse.statusCode).toBe(403);
    expect(ownResponse.json().message).toBe('You cannot book your own product');
    expect(await t.db.select().from(bookings).where(eq(bookings.buyerId, me.id))).toEqual([]);
  });

  it.each([
    [{ phoneNumber: undefined }, 'phoneNumber', 'phoneNumber is required'],
    [{ phoneNumber: 'ring me' }, 'phoneNumber', 'phoneNumber must be a phone number'],
    [{ location: '' }, 'location', 'location is required'],
    [{ productId: undefined }, 'productId', 'must be a valid id'],
    [{ productId: 'chair-1' }, 'productId', 'must be a valid id'],
  ])('refuses %o with 400 naming the field', async (override, field, expected) => {
    const product = await listedProduct();
    const me = await buyer();
    const response = await addBooking(await bearer(t.app, me.id), product.id, override);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ field, message: expected });
  });

  it('answers a malformed JSON body with 400 and a readable message', async () => {
    const me = await buyer();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: { ...(await bearer(t.app, me.id)), 'content-type': 'application/json' },
      payload: '{"productId": "x", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: "Body is not valid JSON but content-type is set to 'application/json'" });
  });

  it('answers 404 for a listing an admin took down, as for one that is not there', async () => {
    const product = await listedProduct();
    await t.db.update(products).set({ moderation: 'hidden' }).where(eq(products.id, product.id));
    const me = await buyer();
    const response = await addBooking(await bearer(t.app, me.id), product.id);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('No product with this id');
    expect(await t.db.select().from(bookings).where(eq(bookings.productId, product.id))).toEqual([]);
  });

  it('refuses with 409 a product sold while the booking waited for it, and tells the seller nothing', async () => {
    const product = await listedProduct();
    const me = await buyer();
    const headers = await bearer(t.app, me.id);
    const response = await racingASale(t.db, product.id, () => addBooking(headers, product.id));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This product is no longer available');
    expect(await t.db.select().from(bookings).where(eq(bookings.productId, product.id))).toEqual([]);
    expect(await t.db.select().from(notifications).where(eq(notifications.userId, product.sellerId))).toEqual([]);
    expect(await t.db.select().from(liveEvents).where(eq(liveEvents.userId, product.sellerId))).toEqual([]);
  });

  it('answers 404 for an unknown product, 401 without a token, 403 to an admin', async () => {
    const me = await buyer();
    const payload = { productId: '00000000-0000-4000-8000-000000000000', phoneNumber: '01712345678', location: 'Mirpur' };
    const unknown = await t.app.inject({ method: 'POST', url: '/api/addBooking', headers: await bearer(t.app, me.id), payload });
    expect(unknown.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/addBooking', payload })).statusCode).toBe(401);
    // Sellers buy too; an admin who never bought does not.
    const admin = await createUser(t.db, { role: 'admin', password: null });
    expect((await t.app.inject({ method: 'POST', url: '/api/addBooking', headers: await bearer(t.app, admin.id), payload })).statusCode).toBe(403);
  });
});

describe('POST /api/addBooking tells the seller', () => {
  const book = async (buyerId: string, productId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: await bearer(t.app, buyerId),
      payload: { productId, phoneNumber: '01712345678', location: 'Gulshan' },
    });
  const eventsOf = (userId: string) =>
    t.db.select({ type: liveEvents.type, data: liveEvents.data }).from(liveEvents).where(eq(liveEvents.userId, userId)).orderBy(asc(liveEvents.id));
  const notificationsOf = (userId: string) => t.db.select().from(notifications).where(eq(notifications.userId, userId));

  it('in the booking’s transaction: a notification that its job e-mails, and live events; a refused booking tells nothing', async () => {
    const product = await listedProduct({ productName: 'Oak chest' });
    const me = await buyer({ name: 'Rina Buyer' });
    const booked = await book(me.id, product.id);
    expect(booked.statusCode).toBe(201);

    const [notification] = await notificationsOf(product.sellerId);
    expect(notification).toMatchObject({ kind: 'booking-received', text: notificationTexts.bookingReceived('Rina Buyer', 'Oak chest') });
    // The e-mail job was queued with this notification: running it marks the notification e-mailed.
    await expect.poll(async () => (await notificationsOf(product.sellerId))[0]!.emailedAt).not.toBeNull();
    expect(await eventsOf(product.sellerId)).toEqual([
      { type: 'notification.created', data: expect.objectContaining({ kind: 'booking-received' }) },
      { type: 'sale.changed', data: { bookingId: booked.json().data._id, productId: product.id, status: 'open' } },
    ]);

    expect((await book(me.id, product.id)).statusCode).toBe(409);
    expect(await notificationsOf(product.sellerId)).toHaveLength(1);
    expect(await eventsOf(product.sellerId)).toHaveLength(2);
  });

  it('of each of 50 bookings of their pieces made at once: every booking kept, one notification and two events each', async () => {
    const first = await listedProduct();
    const category = await createCategory(t.db);
    const pieces = [first, ...(await Promise.all(Array.from({ length: 4 }, () => createProduct(t.db, { categoryId: category.id, sellerId: first.sellerId }))))];
    const buyers = await Promise.all(Array.from({ length: 10 }, () => buyer()));
    const responses = await Promise.all(buyers.flatMap((person) => pieces.map((piece) => book(person.id, piece.id))));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(201));

    const kept = await t.db.select({ id: bookings.id }).from(bookings).where(inArray(bookings.productId, pieces.map((piece) => piece.id)));
    expect(kept.map((row) => row.id).sort()).toEqual(responses.map((response) => response.json().data._id).sort());
    expect(await notificationsOf(first.sellerId)).toHaveLength(50);
    const events = await eventsOf(first.sellerId);
    expect(events.filter((event) => event.type === 'sale.changed').map((event) => (event.data as { bookingId: string }).bookingId).sort()).toEqual(
      kept.map((row) => row.id).sort(),
    );
    expect(events.filter((event) => event.type === 'notification.created')).toHaveLength(50);
  });
});

describe('GET /api/booking', () => {
  it('lists the caller’s bookings with the product’s current state and the payment’s transaction id', async () => {
    const me = await buyer();
    const open = await listedProduct();
    const bought = await listedProduct();
    const openBooking = await createBooking(t.db, open, me.id);
    const paidBooking = await createBooking(t.db, bought, me.id, { paymentStatus: 'paid' });
    await t.db.update(bookings).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(bookings.id, paidBooking.id));
    await createPayment(t.db, paidBooking, { transactionId: 'pi_sim_123' });
    await t.db.update(products).set({ inStock: 'sold', state: 'sold' }).where(eq(products.id, bought.id));
    await createBooking(t.db, open, (await buyer()).id);

    const response = await t.app.inject({ method: 'GET', url: `/api/booking?email=${me.email}`, headers: await bearer(t.app, me.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([
      expect.objectContaining({ _id: openBooking.id, inStock: 'available', paymentStatus: 'unpaid', transactionId: null, buyerEmail: me.email }),
      expect.objectContaining({ _id: paidBooking.id, inStock: 'sold', paymentStatus: 'paid', transactionId: 'pi_sim_123', productPrice: 150 }),
    ]);
  });

  it('tells the buyer whom to meet and when they booked: the seller’s name and phone, and the booking time', async () => {
    const me = await buyer();
    const seller = await createUser(t.db, { role: 'seller', name: 'Selina Seller', password: null });
    const product = await createProduct(t.db, { categoryId: (await createCategory(t.db)).id, sellerId: seller.id });
    const booking = await createBooking(t.db, product, me.id, { location: 'Gulshan 2 circle' });
    const response = await t.app.inject({ method: 'GET', url: `/api/booking?email=${me.email}`, headers: await bearer(t.app, me.id) });
    expect(response.json().data[0]).toMatchObject({
      location: 'Gulshan 2 circle',
      sellerName: 'Selina Seller',
      sellerPhone: product.phone,
      bookedAt: booking.createdAt.toISOString(),
    });
  });

  it('does not show a refunded payment as the booking’s transaction', async () => {
    const me = await buyer();
    const booking = await createBooking(t.db, await listedProduct(), me.id);
    await createPayment(t.db, booking, { status: 'refunded' });
    const response = await t.app.inject({ method: 'GET', url: `/api/booking?email=${me.email}`, headers: await bearer(t.app, me.id) });
    expect(response.json().data[0]).toMatchObject({ paymentStatus: 'unpaid', transactionId: null });
  });

  it('refuses another buyer’s e-mail with 403; an admin may read it, and gets 404 for an unknown e-mail', async () => {
    const me = await buyer();
    const other = await buyer();
    await createBooking(t.db, await listedProduct(), other.id);
    const refused = await t.app.inject({ method: 'GET', url: `/api/booking?email=${other.email}`, headers: await bearer(t.app, me.id) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: 'You can only see your own bookings' });

    const admin = await createUser(t.db, { role: 'admin', password: null });
    const headers = await bearer(t.app, admin.id);
    const allowed = await t.app.inject({ method: 'GET', url: `/api/booking?email=${other.email}`, headers });
    expect(allowed.json().data).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/booking?email=ghost@example.com', headers })).statusCode).toBe(404);
  });

  it('pages the list', async () => {
    const me = await buyer();
    for (let i = 0; i < 3; i++) await createBooking(t.db, await listedProduct(), me.id);
    const headers = await bearer(t.app, me.id);
    const first = await t.app.inject({ method: 'GET', url: `/api/booking?email=${me.email}&limit=2`, headers });
    expect(first.json().data).toHaveLength(2);
    expect(first.headers.link).toBe(`</api/booking?email=${encodeURIComponent(me.email)}&limit=2&page=2>; rel="next"`);
  });
});

describe('DELETE /api/bookingDelete', () => {
  it('cancels one of the caller’s unpaid bookings', async () => {
    const me = await buyer();
    const booking = await createBooking(t.db, await listedProduct(), me.id);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/bookingDelete?id=${booking.id}`,
      headers: await bearer(t.app, me.id),
      payload: { buyerEmail: me.email },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deletedCount: 1, message: messages.productDeleted });
    expect(await t.db.select().from(bookings).where(eq(bookings.id, booking.id))).toEqual([]);
  });

  it('answers 404 for another buyer’s booking, whatever buyerEmail says, and leaves it', async () => {
    const me = await buyer();
    const other = await buyer();
    const booking = await createBooking(t.db, await listedProduct(), other.id);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/bookingDelete?id=${booking.id}`,
      headers: await bearer(t.app, me.id),
      payload: { buyerEmail: other.email },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: 'No booking with this id among your bookings' });
    expect(await t.db.select().from(bookings).where(eq(bookings.id, booking.id))).toHaveLength(1);
  });

  it('keeps a paid booking: 409', async () => {
    const me = await buyer();
    const booking = await createBooking(t.db, await listedProduct(), me.id);
    await createPayment(t.db, booking);
    const response = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booking.id}`, headers: await bearer(t.app, me.id) });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This booking is paid, so it cannot be deleted');
    expect(await t.db.select().from(bookings).where(eq(bookings.id, booking.id))).toHaveLength(1);
  });

  it('answers 404 for an unknown id, 400 for a malformed one, 403 to an admin', async () => {
    const me = await buyer();
    const headers = await bearer(t.app, me.id);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/bookingDelete?id=00000000-0000-4000-8000-000000000000', headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/bookingDelete?id=12', headers })).statusCode).toBe(400);
    const booking = await createBooking(t.db, await listedProduct(), me.id);
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booking.id}`, headers: await bearer(t.app, admin.id) });
    expect(response.statusCode).toBe(403);
  });
});
