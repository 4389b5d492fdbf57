import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createCategory, createProduct, createUser } from '../db/factories.ts';

/**
 * Text with a control character in it (NUL above all, which PostgreSQL cannot store) is refused
 * with a 400 naming the field, wherever the text would be stored or searched for.
 */

const t = setupTestApp();

const NUL = '\u0000';
const image = 'https://images.example.com/x.webp';
const unique = () => Math.random().toString(36).slice(2);

async function expectRefusal(response: LightMyRequestResponse, field: string, label: string) {
  expect(response.statusCode).toBe(400);
  const body = response.json();
  expect(body.success).toBe(false);
  expect(body.errors).toContainEqual({ field, message: `${label} must not contain control characters` });
}

describe('control characters in text', () => {
  it('are refused in a sign-up name and photo', async () => {
    const base = { name: 'Rahim', email: `r-${unique()}@example.com`, password: 'Secret123', image, userRole: 'buyer' };
    await expectRefusal(
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...base, name: `a${NUL}b` } }),
      'name',
      'Name',
    );
    await expectRefusal(
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...base, image: `https://example.com/x${NUL}.jpg` } }),
      'image',
      'Photo',
    );
  });

  it('are refused in a saved profile', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/userAddToDb',
      payload: { name: `a${NUL}b`, email: `p-${unique()}@example.com`, image, userRole: 'seller' },
    });
    await expectRefusal(response, 'name', 'Name');
  });

  it('are refused in a new category and a new product', async () => {
    const admin = await createUser(t.db, { role: 'admin' });
    await expectRefusal(
      await t.app.inject({
        method: 'POST',
        url: '/api/addCategory',
        headers: await bearer(t.app, admin.id),
        payload: { categoryName: `Sofas${NUL}`, description: 'Soft', image },
      }),
      'categoryName',
      'Category name',
    );

    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = {
      categoryId: category.id,
      condition: 'Good',
      productName: 'Chair',
      yearsOfUsedProduct: '2 years',
      originalPrice: 100,
      resalePrice: 50,
      description: 'Sturdy',
      phone: '01700000000',
      location: 'Dhaka',
      productImage: image,
    };
    await expectRefusal(
      await t.app.inject({
        method: 'POST',
        url: '/api/addProduct',
        headers: await bearer(t.app, seller.id),
        payload: { ...product, description: `line one\nline two${NUL}` },
      }),
      'description',
      'Description',
    );
  });

  it('are refused in a booking, a payment and a search, while tabs and new lines are text', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const buyer = await createUser(t.db, { role: 'buyer' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const headers = await bearer(t.app, buyer.id);

    await expectRefusal(
      await t.app.inject({
        method: 'POST',
        url: '/api/addBooking',
        headers,
        payload: { productId: product.id, phoneNumber: '01700000000', location: `Dhaka${NUL}` },
      }),
      'location',
      'Location',
    );
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers,
      payload: { productId: product.id, phoneNumber: '01700000000', location: 'Gate 2,\tnear the\nmarket' },
    });
    expect(booked.statusCode).toBe(201);

    const booking = await createBooking(t.db, await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }), buyer.id);
    await expectRefusal(
      await t.app.inject({
        method: 'POST',
        url: '/api/payment',
        headers,
        payload: { status: 'succeeded', transactionId: `pi_${NUL}x`, productId: booking.productId, bookingId: booking.id },
      }),
      'transactionId',
      'Transaction id',
    );

    await expectRefusal(
      await t.app.inject({ method: 'GET', url: `/api/products?q=${encodeURIComponent(`chair${NUL}`)}` }),
      'q',
      'Search words',
    );
  });
});
