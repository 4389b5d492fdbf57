import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reviewTexts } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { reviews } from '../db/schema/index.ts';
import { payByCard, postPayment } from '../../test/payment-fixtures.ts';
import { bookingStep, saleOf } from '../../test/sale-fixtures.ts';

const t = setupTestApp();

/** A sale paid by card; handed over too unless told otherwise. */
async function paidSale({ handedOver = true } = {}) {
  const sale = await saleOf(t.app, t.db);
  const buyer = sale.buyers[0]!;
  const { transactionId } = await payByCard(t.app, buyer.headers, buyer.booking.id);
  await postPayment(t.app, buyer.headers, { transactionId, productId: sale.product.id, bookingId: buyer.booking.id });
  if (handedOver) expect((await bookingStep(t.app, sale.sellerHeaders, buyer.booking.id, 'handover')).statusCode).toBe(200);
  return { ...sale, buyer };
}

const postReview = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/api/reviews', headers, payload });

describe('POST /api/reviews', () => {
  it('lets the buyer rate the seller and the seller rate the buyer, once each, after the sale closed', async () => {
    const sale = await paidSale();
    const bookingId = sale.buyer.booking.id;

    const byBuyer = await postReview(sale.buyer.headers, { bookingId, rating: 5, text: 'Exactly as described' });
    expect(byBuyer.statusCode).toBe(201);
    expect(byBuyer.json().data).toMatchObject({ authorId: sale.buyer.user.id, subjectId: sale.seller.id, authorRole: 'buyer', rating: 5 });

    const bySeller = await postReview(sale.sellerHeaders, { bookingId, rating: 4, text: 'On time' });
    expect(bySeller.json().data).toMatchObject({ subjectId: sale.buyer.user.id, authorRole: 'seller' });

    const again = await postReview(sale.buyer.headers, { bookingId, rating: 1, text: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(reviewTexts.alreadyReviewed);
  });

  it('refuses a sale not yet handed over (409) and anyone outside the sale (404)', async () => {
    const sale = await paidSale({ handedOver: false });
    const bookingId = sale.buyer.booking.id;
    const early = await postReview(sale.buyer.headers, { bookingId, rating: 5, text: 'Great' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(reviewTexts.notClosed);

    const stranger = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    const outside = await postReview(stranger, { bookingId, rating: 1, text: 'Bad' });
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toBe(reviewTexts.bookingNotFound);
  });

  it('answers 400 naming a rating outside 1 to 5', async () => {
    const sale = await paidSale();
    const response = await postReview(sale.buyer.headers, { bookingId: sale.buyer.booking.id, rating: 6, text: 'Wow' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(reviewTexts.ratingRange);
  });
});

describe('PATCH /api/reviews/{id}', () => {
  it('lets the author change a review for 14 days, then it is final', async () => {
    const sale = await paidSale();
    const created = await postReview(sale.buyer.headers, { bookingId: sale.buyer.booking.id, rating: 3, text: 'Fine' });
    const id = created.json().data.id as string;

    const stranger = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/reviews/${id}`, headers: stranger, payload: { rating: 1, text: 'x' } })).statusCode).toBe(404);

    const edited = await t.app.inject({ method: 'PATCH', url: `/api/reviews/${id}`, headers: sale.buyer.headers, payload: { rating: 4, text: 'Better than I said' } });
    expect(edited.json().data).toMatchObject({ rating: 4, text: 'Better than I said' });

    await t.db.update(reviews).set({ createdAt: sql`now() - interval '14 days 1 minute'` }).where(eq(reviews.id, id));
    const late = await t.app.inject({ method: 'PATCH', url: `/api/reviews/${id}`, headers: sale.buyer.headers, payload: { rating: 1, text: 'Never mind' } });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(reviewTexts.reviewFinal);
  });
});

describe('GET /api/bookings/{id}/review', () => {
  it('answers each side of the sale its own review, null before they write one, and 404 to anyone else', async () => {
    const sale = await paidSale();
    const bookingId = sale.buyer.booking.id;
    const ownReview = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/bookings/${bookingId}/review`, headers });

    expect((await ownReview(sale.buyer.headers)).json()).toEqual({ success: true, data: null });
    await postReview(sale.buyer.headers, { bookingId, rating: 4, text: 'Solid' });
    const mine = await ownReview(sale.buyer.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toMatchObject({ bookingId, authorId: sale.buyer.user.id, rating: 4, text: 'Solid' });
    // The seller has not reviewed the buyer yet: the buyer's review is not theirs.
    expect((await ownReview(sale.sellerHeaders)).json().data).toBeNull();

    const stranger = await bearer(t.app, (await createUser(t.db, { password: null })).id);
    const outside = await ownReview(stranger);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toBe(reviewTexts.bookingNotFound);
  });
});

describe('GET /api/sellers/{id}', () => {
  it('shows the seller’s rating, reviews and available listings, and no contact details', async () => {
    const sale = await paidSale();
    await postReview(sale.buyer.headers, { bookingId: sale.buyer.booking.id, rating: 4, text: 'Solid oak, as promised' });
    const category = await createCategory(t.db);
    const listed = await createProduct(t.db, { categoryId: category.id, sellerId: sale.seller.id });

    const response = await t.app.inject({ method: 'GET', url: `/api/sellers/${sale.seller.id}` });
    expect(response.statusCode).toBe(200);
    const profile = response.json().data;
    expect(profile).toMatchObject({ _id: sale.seller.id, name: sale.seller.name, verified: true, itemsSold: 1, rating: 4, reviewCount: 1 });
    expect(profile.reviews).toEqual([expect.objectContaining({ text: 'Solid oak, as promised', authorName: sale.buyer.user.name })]);
    expect(profile.listings.map((product: { _id: string }) => product._id)).toEqual([listed.id]);
    expect(JSON.stringify(profile)).not.toContain(sale.seller.email);

    const page = await t.app.inject({ method: 'GET', url: `/api/products/${listed.id}` });
    expect(page.json().data.seller).toMatchObject({ rating: 4, reviewCount: 1 });
  });

  it('answers 404 for an account that is not a seller', async () => {
    const buyer = await createUser(t.db, { password: null });
    const response = await t.app.inject({ method: 'GET', url: `/api/sellers/${buyer.id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(reviewTexts.sellerNotFound);
  });
});
