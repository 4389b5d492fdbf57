import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reportReasons } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { notifications, products } from '../db/schema/index.ts';
import { RATE_LIMITS, type RateLimit } from './rate-limit.ts';

/**
 * Actions that cost someone else something (a notification, an e-mail, a moderator's time) or
 * the server work are limited per account or address, counted in PostgreSQL like every limit.
 */

const t = setupTestApp();

/** Fills the counter as if the subject had used the whole limit just now. */
async function useUp(limit: RateLimit, subject: string) {
  await t.db.execute(sql`
    insert into login_throttle (key, failures, window_started_at) values (${`${limit.prefix}:${subject}`}, ${limit.max}, now())
    on conflict (key) do update set failures = excluded.failures, window_started_at = now()`);
}

async function world() {
  const seller = await createUser(t.db, { role: 'seller' });
  const buyer = await createUser(t.db, { role: 'buyer' });
  const category = await createCategory(t.db);
  const product = () => createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
  return { seller, buyer, product, headers: await bearer(t.app, buyer.id) };
}

describe('limits on actions', () => {
  it('stop one buyer from booking and cancelling one seller’s pieces without end, and the seller from being told each time', async () => {
    const { seller, buyer, product, headers } = await world();
    const piece = await product();
    const notificationsOfSeller = async () => (await t.db.select().from(notifications).where(eq(notifications.userId, seller.id))).length;
    const book = () =>
      t.app.inject({ method: 'POST', url: '/api/addBooking', headers, payload: { productId: piece.id, phoneNumber: '01700000000', location: 'Dhaka' } });
    for (let change = 0; change < RATE_LIMITS.bookingChangesPerSeller.max; change += 2) {
      const booked = await book();
      expect(booked.statusCode).toBe(201);
      const cancelled = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booked.json().data._id}`, headers });
      expect(cancelled.statusCode).toBe(200);
    }
    const told = await notificationsOfSeller();
    const refused = await book();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().message).toBe('Too many bookings and cancellations of this seller’s pieces. Try again in 60 minutes.');
    expect(await notificationsOfSeller()).toBe(told);
    // Another seller's pieces can still be booked by this buyer.
    const other = await world();
    const elsewhere = await createProduct(t.db, { categoryId: piece.categoryId, sellerId: other.seller.id });
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers,
      payload: { productId: elsewhere.id, phoneNumber: '01700000000', location: 'Dhaka' },
    });
    expect(booked.statusCode).toBe(201);
    await useUp(RATE_LIMITS.bookingChangesPerAccount, buyer.id);
    const cancel = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booked.json().data._id}`, headers });
    expect(cancel.statusCode).toBe(429);
    expect(cancel.json().message).toBe('Too many bookings and cancellations. Try again in 60 minutes.');
  });

  it('stop one address searching without end, and no other', async () => {
    await useUp(RATE_LIMITS.searchesPerAddress, '198.51.100.60');
    const url = `/api/products?q=${Math.random().toString(36).slice(2)}`;
    const refused = await t.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.60' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many searches from this address\. Try again in /);
    expect((await t.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.61' })).statusCode).toBe(200);
  });

  it('stop one account opening live update tickets and streams without end', async () => {
    const { buyer, headers } = await world();
    await useUp(RATE_LIMITS.liveConnectionsPerAccount, buyer.id);
    const ticket = await t.app.inject({ method: 'POST', url: '/api/events/ticket', headers });
    expect(ticket.statusCode).toBe(429);
    expect(ticket.json().message).toBe('Too many live update connections for this account. Try again in 10 minutes.');
    const stream = await t.app.inject({ method: 'GET', url: '/api/events', headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.statusCode).toBe(429);
  });

  it('stop one account filing reports without end; a refused report changes nothing', async () => {
    const { buyer, product, headers } = await world();
    const piece = await product();
    await useUp(RATE_LIMITS.reportsPerAccount, buyer.id);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers,
      payload: { targetType: 'product', targetId: piece.id, reason: reportReasons[0] },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many reports. Try again in 60 minutes.');
    const [stored] = await t.db.select({ reported: products.reported }).from(products).where(eq(products.id, piece.id));
    expect(stored!.reported).toBe(false);
  });

  it('stop one account starting conversations without end, while its threads stay open to it', async () => {
    const { buyer, product, headers } = await world();
    const known = await product();
    expect((await t.app.inject({ method: 'POST', url: '/api/conversations', headers, payload: { productId: known.id } })).statusCode).toBe(201);
    await useUp(RATE_LIMITS.conversationsPerAccount, buyer.id);
    const refused = await t.app.inject({ method: 'POST', url: '/api/conversations', headers, payload: { productId: (await product()).id } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many new conversations. Try again in 60 minutes.');
    expect((await t.app.inject({ method: 'POST', url: '/api/conversations', headers, payload: { productId: known.id } })).statusCode).toBe(200);
  });
});
