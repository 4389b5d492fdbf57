import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { makeOffer, send, startThread } from '../../test/conversation-fixtures.ts';
import { bookingStep, paidSaleOf } from '../../test/sale-fixtures.ts';
import { passkeys, refreshTokens, reviews, users } from '../db/schema/index.ts';
import { createBooking, createProduct, createUser, createWish, DEFAULT_TEST_PASSWORD } from '../demo/factories.ts';

const t = setupTestApp();

describe('GET /api/me/export', () => {
  it('answers a JSON file of every section the account holds, and no hash, token or key', async () => {
    // One account that buys and sells: a paid and received sale of its own piece, a purchase, a wish, a thread, a review.
    const account = await createUser(t.db, { role: 'seller', verified: true, name: 'Exporting Person' });
    const [withPhone] = await t.db.update(users).set({ phone: '+880 1711 223344', location: 'Mirpur' }).where(eq(users.id, account.id)).returning();
    const sale = await paidSaleOf(t.app, t.db, { seller: account });
    expect((await bookingStep(t.app, sale.buyerHeaders, sale.booking.id, 'received')).statusCode).toBe(200);
    const otherSeller = await createUser(t.db, { role: 'seller' });
    const piece = await createProduct(t.db, { categoryId: sale.category.id, sellerId: otherSeller.id });
    const purchase = await createBooking(t.db, piece, account.id);
    await createWish(t.db, { buyerId: account.id, productId: piece.id });
    await t.db.insert(reviews).values({ bookingId: sale.booking.id, authorId: account.id, subjectId: sale.buyers[0]!.user.id, authorRole: 'seller', rating: 5, text: 'Quick to pay' });
    await t.db.insert(passkeys).values({ userId: account.id, credentialId: randomBytes(16).toString('base64url'), publicKey: 'pQECAyYgASFYIKEY', name: 'Safari on iPhone' });

    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: account.email, password: DEFAULT_TEST_PASSWORD } });
    const headers = { authorization: `bearer ${login.json().token}` };
    const threadId = await startThread(t.app, headers, piece.id, 'Does the drawer close?');
    expect((await makeOffer(t.app, headers, threadId, 50)).statusCode).toBe(201);
    expect((await send(t.app, headers, threadId, 'I can come on Friday')).statusCode).toBe(201);

    const response = await t.app.inject({ method: 'GET', url: '/api/me/export', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="used-furniture-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const data = response.json();

    expect(data.account).toMatchObject({ _id: account.id, name: 'Exporting Person', email: account.email, phone: withPhone!.phone, location: 'Mirpur', hasPassword: true });
    expect(data.listings).toEqual([expect.objectContaining({ _id: sale.product.id, photos: sale.product.photos, productImage: sale.product.productImage })]);
    expect(data.wishes).toEqual([expect.objectContaining({ productId: piece.id })]);
    expect(data.bookings).toEqual([expect.objectContaining({ _id: purchase.id, status: 'open' })]);
    expect(data.sales).toEqual([expect.objectContaining({ _id: sale.booking.id, status: 'closed' })]);
    expect(data.conversations).toEqual([expect.objectContaining({ _id: threadId, yourSide: 'buyer' })]);
    expect(data.offers).toEqual([expect.objectContaining({ conversationId: threadId, amount: '50.00', sentByYou: true })]);
    expect(data.messages.map((message: { text: string }) => message.text)).toEqual(['Does the drawer close?', 'I can come on Friday']);
    expect(data.reviewsWritten).toEqual([expect.objectContaining({ rating: 5, text: 'Quick to pay' })]);
    expect(data.earnings.map((entry: { kind: string }) => entry.kind)).toEqual(['charge', 'release']);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.notificationSettings).toEqual({ email: true, digest: false });
    expect(data.passkeys).toEqual([expect.objectContaining({ name: 'Safari on iPhone' })]);
    // The fixture's session of the seller, and this sign-in.
    expect(data.sessions).toHaveLength(2);
    expect(data).toHaveProperty('payments');
    expect(data).toHaveProperty('payouts');

    // Secrets stay out, whatever their place: the hash, the session tokens, the passkey's key.
    const file = response.body;
    const [tokenRow] = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, account.id));
    for (const secret of [account.passwordHash!, tokenRow!.tokenHash, 'pQECAyYgASFYIKEY', login.json().token as string]) expect(file).not.toContain(secret);
    expect(file).not.toMatch(/hash|secret|publicKey|token/i);
  });

  it('answers a buyer’s payments', async () => {
    const sale = await paidSaleOf(t.app, t.db);
    const response = await t.app.inject({ method: 'GET', url: '/api/me/export', headers: sale.buyerHeaders });
    expect(response.json().payments).toEqual([expect.objectContaining({ bookingId: sale.booking.id, amountCents: 15_000, status: 'succeeded' })]);
    expect(response.json().listings).toEqual([]);
  });

  it('is only for a signed-in account', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me/export' })).statusCode).toBe(401);
  });
});
