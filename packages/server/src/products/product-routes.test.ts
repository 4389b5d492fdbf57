import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { waitingOnALock } from '../../test/database.ts';
import { createBooking, createCategory, createPayment, createProduct, createUser, createWish } from '../demo/factories.ts';
import { bookings, payments, products, wishes } from '../db/schema/index.ts';
import { prepareBookProduct } from '../bookings/booking-repository.ts';

const t = setupTestApp();

const productKeys = [
  '_id', 'categoryId', 'categoryName', 'condition', 'productName', 'yearsOfUsedProduct', 'originalPrice', 'resalePrice',
  'description', 'sellerName', 'sellerEmail', 'phone', 'location', 'productImage', 'photos', 'measurements', 'advertisement', 'postedAt', 'postedDate',
  'postedTime', 'inStock', 'state', 'priceHistory', 'reported', 'sellerVerified', 'sellerRating', 'point',
].sort();

async function sellerWithCategory(overrides: { verified?: boolean } = {}) {
  const seller = await createUser(t.db, { role: 'seller', password: null, ...overrides });
  const category = await createCategory(t.db);
  return { seller, category, refs: { categoryId: category.id, sellerId: seller.id } };
}

describe('GET /api/advertisement', () => {
  it('lists advertised products that are still available, newest first, to anyone', async () => {
    const { refs } = await sellerWithCategory();
    const older = await createProduct(t.db, refs, { advertisement: true, postedAt: new Date('2025-03-01T09:00:00Z') });
    const newer = await createProduct(t.db, refs, { advertisement: true, postedAt: new Date('2025-03-02T09:00:00Z') });
    const sold = await createProduct(t.db, refs, { advertisement: true, inStock: 'sold' });
    const plain = await createProduct(t.db, refs);

    const response = await t.app.inject({ method: 'GET', url: '/api/advertisement' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    const ids = body.data.map((p: { _id: string }) => p._id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(sold.id);
    expect(ids).not.toContain(plain.id);
  });

  it('answers each product with the specification’s fields, local posted date and time, and the ISO instant', async () => {
    const { refs, seller, category } = await sellerWithCategory();
    const postedAt = new Date('2025-04-05T14:07:09Z');
    const product = await createProduct(t.db, refs, { advertisement: true, postedAt, resalePrice: '120.50', originalPrice: '400.00' });

    const body = (await t.app.inject({ method: 'GET', url: '/api/advertisement' })).json();
    const item = body.data.find((p: { _id: string }) => p._id === product.id);
    expect(Object.keys(item).sort()).toEqual(productKeys);
    expect(item).toMatchObject({
      categoryName: category.categoryName,
      sellerName: seller.name,
      // Contact details are never in a public answer (decision 23).
      sellerEmail: '',
      phone: '',
      sellerVerified: false,
      resalePrice: 120.5,
      originalPrice: 400,
      advertisement: true,
      inStock: 'available',
      reported: false,
      postedAt: postedAt.toISOString(),
      postedDate: postedAt.toLocaleDateString('en-US'),
      postedTime: postedAt.toLocaleTimeString('en-US'),
    });
    expect(item.postedDate).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}$/);
    expect(item.postedTime).toMatch(/^\d{1,2}:\d{2}:\d{2}\s(AM|PM)$/);
  });

  it('still serves the public with an expired or broken token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/advertisement', headers: { authorization: 'bearer not.a.token' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /api/addProduct', () => {
  const body = (categoryId: string, overrides: Record<string, unknown> = {}) => ({
    categoryId,
    categoryName: 'Whatever the client says',
    condition: 'Excellent',
    productName: 'Teak sideboard',
    yearsOfUsedProduct: '3 years',
    originalPrice: '900',
    resalePrice: 450.5,
    description: 'Four doors, one drawer',
    sellerName: 'Someone Else',
    sellerEmail: 'someone.else@example.com',
    phone: 8801712345678,
    location: 'Dhaka',
    productImage: 'https://images.example.com/sideboard.webp',
    ...overrides,
  });

  it('lists the product with the seller and category from the database and the starting state', async () => {
    const { seller, category } = await sellerWithCategory({ verified: true });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addProduct',
      headers: await bearer(t.app, seller.id),
      payload: body(category.id),
    });
    expect(response.statusCode).toBe(201);
    const { success, message, data } = response.json();
    expect(success).toBe(true);
    expect(message).toBe('Teak sideboard is listed');
    expect(data).toMatchObject({
      categoryId: category.id,
      categoryName: category.categoryName,
      sellerName: seller.name,
      sellerEmail: seller.email,
      sellerVerified: true,
      originalPrice: 900,
      resalePrice: 450.5,
      phone: '8801712345678',
      advertisement: false,
      inStock: 'available',
      reported: false,
    });
    const [row] = await t.db.select().from(products).where(eq(products.id, data._id));
    expect(row).toMatchObject({ sellerId: seller.id, resalePrice: '450.50', advertisement: false, inStock: 'available', reported: false });
  });

  it('keeps photos in order with the first as the cover, and the measurements', async () => {
    const { seller, category } = await sellerWithCategory();
    const photos = ['https://images.example.com/front.webp', 'https://images.example.com/side.webp', 'https://images.example.com/back.webp'];
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addProduct',
      headers: await bearer(t.app, seller.id),
      payload: body(category.id, { productImage: undefined, photos, measurements: { widthCm: 180, depthCm: '45.5', heightCm: 80 } }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      productImage: photos[0],
      photos,
      measurements: { widthCm: 180, depthCm: 45.5, heightCm: 80 },
    });
  });

  it('lists a product sent the specification’s way with its one photo and no measurements', async () => {
    const { seller, category } = await sellerWithCategory();
    const response = await t.app.inject({ method: 'POST', url: '/api/addProduct', headers: await bearer(t.app, seller.id), payload: body(category.id) });
    expect(response.json().data).toMatchObject({
      productImage: 'https://images.example.com/sideboard.webp',
      photos: ['https://images.example.com/sideboard.webp'],
      measurements: null,
    });
  });

  it('copies sellerVerified from an unverified seller as false', async () => {
    const { seller, category } = await sellerWithCategory();
    const response = await t.app.inject({ method: 'POST', url: '/api/addProduct', headers: await bearer(t.app, seller.id), payload: body(category.id) });
    expect(response.json().data.sellerVerified).toBe(false);
  });

  it.each([
    [{ categoryId: undefined }, messages.productCategoryRequired],
    [{ categoryId: '' }, messages.productCategoryRequired],
    [{ categoryId: 'kitchen' }, 'must be a valid id'],
    [{ condition: 'Broken' }, 'condition must be one of Excellent, Good, Fair'],
    [{ productName: ' ' }, 'productName is required'],
    [{ originalPrice: 'cheap' }, 'originalPrice must be a number'],
    [{ resalePrice: -5 }, 'resalePrice must be at least 0.01'],
    [{ resalePrice: 5e-324 }, 'resalePrice must be at least 0.01'],
    [{ resalePrice: 0.001 }, 'resalePrice must be at least 0.01'],
    [{ resalePrice: '12.345' }, 'resalePrice must have at most 2 decimal places'],
    [{ resalePrice: 10_000_000.01 }, 'resalePrice must be at most 10000000'],
    [{ resalePrice: true }, 'resalePrice must be a number'],
    [{ originalPrice: '0x10' }, 'originalPrice must be a number'],
    [{ originalPrice: '1e3' }, 'originalPrice must be a number'],
    [{ originalPrice: '-5' }, 'originalPrice must be a number'],
    [{ phone: true }, 'phone is required'],
    [{ phone: '0x1700000000' }, 'phone must be a phone number'],
    [{ phone: '1e10' }, 'phone must be a phone number'],
    [{ measurements: { widthCm: true, depthCm: 50, heightCm: 80 } }, 'widthCm must be a number of centimetres'],
    [{ measurements: { widthCm: '0x40', depthCm: 50, heightCm: 80 } }, 'widthCm must be a number of centimetres'],
    [{ phone: 'call me' }, 'phone must be a phone number'],
    [{ location: undefined }, 'location is required'],
    [{ productImage: 'data:image/png;base64,AAAA' }, 'image must be an http(s) URL'],
    [{ productImage: 'javascript:alert(1)' }, 'image must be an http(s) URL'],
    [{ photos: Array.from({ length: 9 }, (_, i) => `https://images.example.com/${i}.webp`) }, 'photos: at most 8 photos'],
    [{ photos: ['ftp://images.example.com/a.webp'] }, 'image must be an http(s) URL'],
    [{ measurements: { widthCm: 100, depthCm: 50 } }, 'heightCm must be a number of centimetres'],
    [{ measurements: { widthCm: 100, depthCm: -50, heightCm: 80 } }, 'depthCm must be greater than 0'],
  ])('refuses %o with 400 and the rule it broke', async (override, expected) => {
    const { seller, category } = await sellerWithCategory();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addProduct',
      headers: await bearer(t.app, seller.id),
      payload: body(category.id, override),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { message: string }) => e.message)).toContain(expected);
  });

  it('refuses a product with neither a productImage nor photos', async () => {
    const { seller, category } = await sellerWithCategory();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addProduct',
      headers: await bearer(t.app, seller.id),
      payload: body(category.id, { productImage: undefined, photos: [] }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('productImage is required');
  });

  it('refuses an unknown category with 400 naming categoryId', async () => {
    const { seller } = await sellerWithCategory();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addProduct',
      headers: await bearer(t.app, seller.id),
      payload: body('00000000-0000-4000-8000-000000000000'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: 'categoryId: no category with this id' });
  });

  it('answers 401 without a token and 403 to a buyer or an admin', async () => {
    const { category } = await sellerWithCategory();
    expect((await t.app.inject({ method: 'POST', url: '/api/addProduct', payload: body(category.id) })).statusCode).toBe(401);
    for (const role of ['buyer', 'admin'] as const) {
      const user = await createUser(t.db, { role, password: null });
      const response = await t.app.inject({ method: 'POST', url: '/api/addProduct', headers: await bearer(t.app, user.id), payload: body(category.id) });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('GET /api/myProducts', () => {
  it('lists all of the seller’s own products, sold ones included, newest first', async () => {
    const { seller, refs } = await sellerWithCategory();
    const other = await sellerWithCategory();
    const available = await createProduct(t.db, refs, { postedAt: new Date('2025-05-01T00:00:00Z') });
    const sold = await createProduct(t.db, refs, { inStock: 'sold', postedAt: new Date('2025-05-02T00:00:00Z') });
    await createProduct(t.db, other.refs);

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/myProducts?email=${encodeURIComponent(seller.email.toUpperCase())}`,
      headers: await bearer(t.app, seller.id),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((p: { _id: string; inStock: string }) => [p._id, p.inStock])).toEqual([
      [sold.id, 'sold'],
      [available.id, 'available'],
    ]);
  });

  it('refuses another seller’s e-mail with 403', async () => {
    const mine = await sellerWithCategory();
    const theirs = await sellerWithCategory();
    await createProduct(t.db, theirs.refs);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/myProducts?email=${theirs.seller.email}`,
      headers: await bearer(t.app, mine.seller.id),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: 'You can only see your own products' });
  });

  it('lets an admin read any seller’s list, and answers 404 for an unknown e-mail', async () => {
    const { seller, refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs);
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const headers = await bearer(t.app, admin.id);
    const response = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${seller.email}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((p: { _id: string }) => p._id)).toEqual([product.id]);

    const unknown = await t.app.inject({ method: 'GET', url: '/api/myProducts?email=nobody@example.com', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No account with the e-mail nobody@example.com');
  });

  it('pages the list and refuses a missing or malformed e-mail with 400', async () => {
    const { seller, refs } = await sellerWithCategory();
    for (let i = 0; i < 3; i++) await createProduct(t.db, refs);
    const headers = await bearer(t.app, seller.id);
    const first = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${seller.email}&limit=2`, headers });
    expect(first.json().data).toHaveLength(2);
    expect(first.headers.link).toContain('page=2');
    const second = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${seller.email}&limit=2&page=2`, headers });
    expect(second.json().data).toHaveLength(1);
    expect(second.headers.link).toBeUndefined();

    const missing = await t.app.inject({ method: 'GET', url: '/api/myProducts', headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('email is required');
    const malformed = await t.app.inject({ method: 'GET', url: '/api/myProducts?email=seller', headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('email must be a valid e-mail address');
  });
});

describe('DELETE /api/productDelete', () => {
  it('deletes the seller’s product with its wishes and unpaid bookings in one go, and keeps paid bookings and payments', async () => {
    const { seller, refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs);
    const [wisher, booker, payer] = await Promise.all([1, 2, 3].map(() => createUser(t.db, { password: null })));
    const wish = await createWish(t.db, { buyerId: wisher!.id, productId: product.id });
    const unpaid = await createBooking(t.db, product, booker!.id);
    const paid = await createBooking(t.db, product, payer!.id, { paymentStatus: 'paid' });
    const payment = await createPayment(t.db, paid, { transactionId: 'pi_sim_kept' });

    const response = await t.app.inject({ method: 'DELETE', url: `/api/productDelete?id=${product.id}`, headers: await bearer(t.app, seller.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deletedCount: 1, message: messages.productDeleted });

    expect(await t.db.select().from(products).where(eq(products.id, product.id))).toEqual([]);
    expect(await t.db.select().from(wishes).where(eq(wishes.id, wish.id))).toEqual([]);
    expect(await t.db.select().from(bookings).where(eq(bookings.id, unpaid.id))).toEqual([]);
    const [keptBooking] = await t.db.select().from(bookings).where(eq(bookings.id, paid.id));
    expect(keptBooking).toMatchObject({ productId: null, paymentStatus: 'paid', productName: product.productName });
    const [keptPayment] = await t.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(keptPayment).toMatchObject({ productId: null, bookingId: paid.id, transactionId: 'pi_sim_kept' });

    const orders = await t.app.inject({ method: 'GET', url: `/api/booking?email=${payer!.email}`, headers: await bearer(t.app, payer!.id) });
    expect(orders.json().data).toEqual([
      expect.objectContaining({ _id: paid.id, productId: null, inStock: 'sold', paymentStatus: 'paid', transactionId: 'pi_sim_kept' }),
    ]);
  });

  it('removes a booking that was being added while the product was deleted, instead of leaving it without its product', async () => {
    const { seller, refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs);
    const buyer = await createUser(t.db, { password: null });

    // A booking transaction holds the product, as POST /addBooking does, and stays open.
    let commitBooking!: () => void;
    let bookingHeld!: () => void;
    const held = new Promise<void>((resolve) => (bookingHeld = resolve));
    const booking = t.db.transaction(async (tx) => {
      await prepareBookProduct(tx, { percent: 10, fixedCents: 0 })(buyer, { productId: product.id, phoneNumber: '01712345678', location: 'Mirpur' });
      bookingHeld();
      await new Promise<void>((resolve) => (commitBooking = resolve));
    });
    await held;

    const deletion = t.app.inject({ method: 'DELETE', url: `/api/productDelete?id=${product.id}`, headers: await bearer(t.app, seller.id) });
    // The delete waits for the product's lock before touching anything; then the booking commits.
    while (!(await waitingOnALock(t.db))) await new Promise((resolve) => setImmediate(resolve));
    commitBooking();
    await booking;

    expect((await deletion).statusCode).toBe(200);
    expect(await t.db.select().from(bookings).where(eq(bookings.buyerId, buyer.id))).toEqual([]);
  });

  it('refuses another seller’s product with 403 and leaves it in place', async () => {
    const owner = await sellerWithCategory();
    const intruder = await sellerWithCategory();
    const product = await createProduct(t.db, owner.refs);
    const response = await t.app.inject({ method: 'DELETE', url: `/api/productDelete?id=${product.id}`, headers: await bearer(t.app, intruder.seller.id) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: 'You can only delete your own products' });
    expect(await t.db.select({ id: products.id }).from(products).where(eq(products.id, product.id))).toHaveLength(1);
  });

  it('lets an admin remove any product', async () => {
    const { refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs);
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'DELETE', url: `/api/productDelete?id=${product.id}`, headers: await bearer(t.app, admin.id) });
    expect(response.statusCode).toBe(200);
    expect(response.json().deletedCount).toBe(1);
  });

  it('answers 404 for an unknown id, 400 for a malformed or missing one, 403 to a buyer', async () => {
    const { seller, refs } = await sellerWithCategory();
    const headers = await bearer(t.app, seller.id);
    const unknown = await t.app.inject({ method: 'DELETE', url: '/api/productDelete?id=00000000-0000-4000-8000-000000000000', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No product with this id' });
    const malformed = await t.app.inject({ method: 'DELETE', url: "/api/productDelete?id=1' or '1'='1", headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ field: 'id', message: 'must be a valid id' }]);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/productDelete', headers })).statusCode).toBe(400);

    const product = await createProduct(t.db, refs);
    const buyer = await createUser(t.db, { password: null });
    const wrongRole = await t.app.inject({ method: 'DELETE', url: `/api/productDelete?id=${product.id}`, headers: await bearer(t.app, buyer.id) });
    expect(wrongRole.statusCode).toBe(403);
  });
});

describe('POST /api/productAddToAdvertisement', () => {
  it('advertises the seller’s own available product, which then shows on the home page', async () => {
    const { seller, refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs, { productName: 'Rattan chair' });
    const headers = await bearer(t.app, seller.id);
    const response = await t.app.inject({ method: 'POST', url: `/api/productAddToAdvertisement?id=${product.id}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Rattan chair is now advertised' });
    const advertised = (await t.app.inject({ method: 'GET', url: '/api/advertisement' })).json().data;
    expect(advertised.map((p: { _id: string }) => p._id)).toContain(product.id);

    const again = await t.app.inject({ method: 'POST', url: `/api/productAddToAdvertisement?id=${product.id}`, headers });
    expect(again.json()).toEqual({ success: true, message: 'Rattan chair is already advertised' });
  });

  it('refuses another seller’s product with 403, a sold one with 409, an unknown one with 404', async () => {
    const owner = await sellerWithCategory();
    const intruder = await sellerWithCategory();
    const product = await createProduct(t.db, owner.refs);
    const notMine = await t.app.inject({
      method: 'POST',
      url: `/api/productAddToAdvertisement?id=${product.id}`,
      headers: await bearer(t.app, intruder.seller.id),
    });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().message).toBe('You can only advertise your own products');
    const [row] = await t.db.select({ advertisement: products.advertisement }).from(products).where(eq(products.id, product.id));
    expect(row!.advertisement).toBe(false);

    const sold = await createProduct(t.db, owner.refs, { inStock: 'sold' });
    const headers = await bearer(t.app, owner.seller.id);
    const soldResponse = await t.app.inject({ method: 'POST', url: `/api/productAddToAdvertisement?id=${sold.id}`, headers });
    expect(soldResponse.statusCode).toBe(409);
    expect(soldResponse.json().message).toBe('Only an available product can be advertised');

    const unknown = await t.app.inject({ method: 'POST', url: '/api/productAddToAdvertisement?id=00000000-0000-4000-8000-000000000000', headers });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 403 to an admin and a buyer', async () => {
    const { refs } = await sellerWithCategory();
    const product = await createProduct(t.db, refs);
    for (const role of ['admin', 'buyer'] as const) {
      const user = await createUser(t.db, { role, password: null });
      const response = await t.app.inject({ method: 'POST', url: `/api/productAddToAdvertisement?id=${product.id}`, headers: await bearer(t.app, user.id) });
      expect(response.statusCode).toBe(403);
    }
  });
});
