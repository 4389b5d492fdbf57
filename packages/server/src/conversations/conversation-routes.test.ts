import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_LENGTH, conversationMessages, saleMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createUser } from '../demo/factories.ts';
import { chatMessages, liveEvents } from '../db/schema/index.ts';
import { productAndBuyer, send, startThread } from '../../test/conversation-fixtures.ts';

const t = setupTestApp();

async function eventsOf(userId: string, type: string) {
  const rows = await t.db.select().from(liveEvents).where(and(eq(liveEvents.userId, userId), eq(liveEvents.type, type)));
  return rows.map((row) => row.data as Record<string, unknown>);
}

async function myThreads(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/conversations', headers });
  expect(response.statusCode).toBe(200);
  return response.json().data as Array<{ _id: string; unread: number; otherReadAt: string | null; productId: string }>;
}

describe('POST /api/conversations', () => {
  it('opens one thread per product and buyer, answering the same thread when asked again', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const first = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: world.buyerHeaders, payload: { productId: world.product.id, text: 'Is it still available?' } });
    expect(first.statusCode).toBe(201);
    const again = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: world.buyerHeaders, payload: { productId: world.product.id } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data._id).toBe(first.json().data._id);

    const [thread] = await myThreads(world.sellerHeaders);
    expect(thread).toMatchObject({ _id: first.json().data._id, productId: world.product.id, unread: 1 });
  });

  it('refuses a product that does not exist', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const missing = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: world.buyerHeaders, payload: { productId: crypto.randomUUID() } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(conversationMessages.productNotFound);
  });
});

describe('POST /api/bookings/:id/conversation', () => {
  it('lets the seller open the thread with the buyer of a booking, the same thread the buyer would have', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const booking = await createBooking(t.db, world.product, world.buyer.id);
    const opened = await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/conversation`, headers: world.sellerHeaders });
    expect(opened.statusCode).toBe(201);
    const id = opened.json().data._id;
    expect(await startThread(t.app, world.buyerHeaders, world.product.id)).toBe(id);
    const again = await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/conversation`, headers: world.sellerHeaders });
    expect(again.statusCode).toBe(200);
    expect(again.json().data._id).toBe(id);

    const sent = await send(t.app, world.sellerHeaders, id, 'When can you collect it?');
    expect(sent.statusCode).toBe(201);
    expect((await myThreads(world.buyerHeaders))[0]).toMatchObject({ _id: id, unread: 1 });
  });

  it('answers 404 for a booking of another seller’s piece, and for one that does not exist', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const booking = await createBooking(t.db, world.product, world.buyer.id);
    const otherSeller = await createUser(t.db, { role: 'seller' });
    for (const [id, headers] of [[booking.id, await bearer(t.app, otherSeller.id)], [crypto.randomUUID(), world.sellerHeaders]] as const) {
      const refused = await t.app.inject({ method: 'POST', url: `/api/bookings/${id}/conversation`, headers });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(saleMessages.bookingNotFound);
    }
    expect(await myThreads(world.buyerHeaders)).toEqual([]);
  });
});

describe('messages', () => {
  it('are delivered to the other participant as a live event in the same transaction, and counted unread until read', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id);
    const sent = await send(t.app, world.buyerHeaders, id, 'Can you do $90?\nI can pick it up Saturday.');
    expect(sent.statusCode).toBe(201);
    expect(sent.json().data).toMatchObject({ conversationId: id, senderId: world.buyer.id, text: 'Can you do $90?\nI can pick it up Saturday.' });

    expect(await eventsOf(world.seller.id, 'message.created')).toEqual([{ conversationId: id, message: sent.json().data }]);
    expect(await eventsOf(world.buyer.id, 'message.created')).toEqual([]);

    expect((await myThreads(world.sellerHeaders))[0]).toMatchObject({ unread: 1, otherReadAt: null });
    expect((await myThreads(world.buyerHeaders))[0]).toMatchObject({ unread: 0 });

    const read = await t.app.inject({ method: 'POST', url: `/api/conversations/${id}/read`, headers: world.sellerHeaders });
    expect(read.statusCode).toBe(200);
    expect((await myThreads(world.sellerHeaders))[0]).toMatchObject({ unread: 0 });
    // The buyer's read receipt: the seller read up to then, and the buyer was told.
    expect((await myThreads(world.buyerHeaders))[0]!.otherReadAt).toBe(read.json().data.readAt);
    expect(await eventsOf(world.buyer.id, 'conversation.read')).toEqual([{ conversationId: id, readAt: read.json().data.readAt }]);
  });

  it('refuses empty text, text over 2,000 characters and control characters, naming the problem', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id);
    const cases = [
      ['   ', 'Please write a message.'],
      ['x'.repeat(MESSAGE_MAX_LENGTH + 1), 'A message can be at most 2,000 characters.'],
      ['a\u0000b', 'Text must not contain control characters'],
    ] as const;
    for (const [text, message] of cases) {
      const refused = await send(t.app, world.buyerHeaders, id, text);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toContainEqual({ field: 'text', message });
    }
    expect((await send(t.app, world.buyerHeaders, id, 'x'.repeat(MESSAGE_MAX_LENGTH))).statusCode).toBe(201);
  });

  it('are pages of newest first, continued with nextBefore until none are left', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id);
    for (let i = 1; i <= 7; i++) await send(t.app, i % 2 ? world.buyerHeaders : world.sellerHeaders, id, `message ${i}`);
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const url: string = `/api/conversations/${id}/messages?limit=3${before ? `&before=${before}` : ''}`;
      const page = await t.app.inject({ method: 'GET', url, headers: world.sellerHeaders });
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().data.map((message: { text: string }) => message.text));
      before = page.json().nextBefore;
    } while (before);
    expect(seen).toEqual(['message 7', 'message 6', 'message 5', 'message 4', 'message 3', 'message 2', 'message 1']);
  });

  it('page past messages sent within one millisecond without skipping any', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id);
    // Three messages a few microseconds apart, in the same millisecond.
    for (const [index, micros] of ['123401', '123402', '123403'].entries()) {
      await t.db.insert(chatMessages).values({
        conversationId: id,
        senderId: world.buyer.id,
        text: `message ${index + 1}`,
        createdAt: sql`${`2026-01-01T00:00:00.${micros}Z`}::timestamptz`,
      });
    }
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const url: string = `/api/conversations/${id}/messages?limit=1${before ? `&before=${before}` : ''}`;
      const page = await t.app.inject({ method: 'GET', url, headers: world.sellerHeaders });
      seen.push(...page.json().data.map((message: { text: string }) => message.text));
      before = page.json().nextBefore;
    } while (before);
    expect(seen).toEqual(['message 3', 'message 2', 'message 1']);
  });

  it('are limited per account per minute, counted in PostgreSQL', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id);
    for (let i = 0; i < 30; i++) expect((await send(t.app, world.buyerHeaders, id, `m${i}`)).statusCode).toBe(201);
    const refused = await send(t.app, world.buyerHeaders, id, 'one too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many messages. Try again in 1 minute.');
    // The seller's own allowance is untouched.
    expect((await send(t.app, world.sellerHeaders, id, 'fine')).statusCode).toBe(201);
  });
});

describe('privacy', () => {
  it('nobody but the buyer and the seller can read, write, mark read or list a thread, admins included', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, world.buyerHeaders, world.product.id, 'private words');
    for (const role of ['buyer', 'seller', 'admin'] as const) {
      const headers = await bearer(t.app, (await createUser(t.db, { role, password: null })).id);
      for (const request of [
        { method: 'GET' as const, url: `/api/conversations/${id}/messages` },
        { method: 'POST' as const, url: `/api/conversations/${id}/messages`, payload: { text: 'hi' } },
        { method: 'POST' as const, url: `/api/conversations/${id}/read` },
        { method: 'POST' as const, url: `/api/conversations/${id}/offers`, payload: { amount: 10 } },
      ]) {
        const response = await t.app.inject({ ...request, headers });
        // Only accounts that buy make offers at all (sellers buy too); to every other call the thread does not exist.
        expect(response.statusCode).toBe(request.url.endsWith('/offers') && role === 'admin' ? 403 : 404);
        expect(response.body).not.toContain('private words');
      }
      const list = await t.app.inject({ method: 'GET', url: '/api/conversations', headers });
      expect(list.json().data).toEqual([]);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/conversations/${id}/messages` });
    expect(anonymous.statusCode).toBe(401);
    for (const headers of [world.buyerHeaders, world.sellerHeaders]) {
      const page = await t.app.inject({ method: 'GET', url: `/api/conversations/${id}/messages`, headers });
      expect(page.json().data[0].text).toBe('private words');
    }
  });
});
