import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { multipartPayload } from '../../test/images.ts';
import { createBooking, createCategory, createProduct, createUser } from '../demo/factories.ts';

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

  it('are refused in every other body field: reviews, reports, declines, moderation, appeals and lifted suspensions', async () => {
    const buyer = await bearer(t.app, (await createUser(t.db, { role: 'buyer' })).id);
    const seller = await bearer(t.app, (await createUser(t.db, { role: 'seller' })).id);
    const admin = await bearer(t.app, (await createUser(t.db, { role: 'admin' })).id);
    const someId = '00000000-0000-4000-8000-000000000000';
    const cases = [
      { headers: buyer, method: 'POST', url: '/api/reviews', payload: { bookingId: someId, rating: 5, text: `good${NUL}` }, field: 'text' },
      { headers: buyer, method: 'PATCH', url: `/api/reviews/${someId}`, payload: { rating: 4, text: `fine${NUL}` }, field: 'text' },
      { headers: buyer, method: 'POST', url: '/api/reports', payload: { targetType: 'product', targetId: someId, reason: 'spam', note: `x${NUL}` }, field: 'note' },
      { headers: seller, method: 'POST', url: `/api/bookings/${someId}/decline`, payload: { reason: `sold${NUL}` }, field: 'reason' },
      { headers: admin, method: 'POST', url: `/api/admin/reports/${someId}/actions`, payload: { action: 'dismiss', reason: `no${NUL}` }, field: 'reason' },
      { headers: seller, method: 'POST', url: `/api/products/${someId}/appeal`, payload: { text: `please${NUL}` }, field: 'text' },
      { headers: admin, method: 'POST', url: `/api/admin/users/${someId}/lift-suspension`, payload: { reason: `ok${NUL}` }, field: 'reason' },
      { headers: buyer, method: 'POST', url: '/api/reports', payload: { nested: [{ deep: `a${NUL}` }] }, field: 'nested.0.deep' },
    ] as const;
    for (const { field, ...request } of cases) {
      const response = await t.app.inject(request);
      expect(response.statusCode, request.url).toBe(400);
      const label = { text: 'Text', note: 'Note', reason: 'Reason' }[field as string] ?? field;
      expect(response.json().errors, request.url).toEqual([{ field, message: `${label} must not contain control characters` }]);
    }
  });

  it('are refused in any query parameter and path parameter, naming it', async () => {
    await expectRefusal(await t.app.inject({ method: 'GET', url: '/api/events?ticket=a%00b' }), 'ticket', 'ticket');
    await expectRefusal(await t.app.inject({ method: 'GET', url: '/api/products/a%01b' }), 'id', 'id');
  });

  it('are refused in a header before the request reaches a route, while a tab is text', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const statusOf = (headerValue: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () =>
          socket.write(`GET /api/allCategories HTTP/1.1\r\nHost: shop\r\nLast-Event-ID: ${headerValue}\r\nConnection: close\r\n\r\n`),
        );
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('end', () => resolve(answer.slice(0, answer.indexOf('\r\n'))));
        socket.on('error', reject);
      });
    for (const character of [NUL, '\u0001', '\u000B', '\u001F', '\u007F']) expect(await statusOf(`1${character}2`)).toBe('HTTP/1.1 400 Bad Request');
    expect(await statusOf('1\t2')).toBe('HTTP/1.1 200 OK');
  });

  it('are refused in the text fields of a form that carries a photo', async () => {
    const form = { name: 'Rahim', email: `m-${unique()}@example.com`, password: `Secret123${NUL}`, userRole: 'buyer' };
    const { payload, headers } = await multipartPayload(form, []);
    await expectRefusal(await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, headers }), 'password', 'password');
  });
});
