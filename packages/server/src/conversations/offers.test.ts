import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversationMessages, notificationTexts } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { liveEvents, notifications, products, simulatedPaymentIntents, users } from '../db/schema/index.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow, listingStep, productRow } from '../../test/sale-fixtures.ts';
import { answer, makeOffer, productAndBuyer, startThread } from '../../test/conversation-fixtures.ts';

const t = setupTestApp();

const HOUR = 60 * 60 * 1000;

/** A buyer's thread about a $150 piece, with the buyer's open offer in it. */
async function openOffer(amount = 90) {
  const world = await productAndBuyer(t.app, t.db);
  const conversationId = await startThread(t.app, world.buyerHeaders, world.product.id, 'Can you do less?');
  const made = await makeOffer(t.app, world.buyerHeaders, conversationId, amount);
  expect(made.statusCode).toBe(201);
  return { ...world, conversationId, offerId: made.json().data._id as string };
}

/** The thread as its participant lists it. */
async function listedThread(headers: Record<string, string>, conversationId: string) {
  const threads = (await t.app.inject({ method: 'GET', url: '/api/conversations', headers })).json().data as Array<{
    _id: string;
    takesOffers: boolean;
    payableBookingId: string | null;
  }>;
  return threads.find((thread) => thread._id === conversationId)!;
}

/** Whether the thread, as its participant lists it, takes offers now. */
const takesOffers = async (headers: Record<string, string>, conversationId: string) => (await listedThread(headers, conversationId)).takesOffers;

async function offerStatus(offerId: string) {
  const { rows } = await t.db.execute<{ status: string }>(sql`select status from offers where id = ${offerId}`);
  return rows[0]!.status;
}

describe('making an offer', () => {
  it('opens an offer below the asking price for 48 hours, and tells the seller', async () => {
    const world = await openOffer(90);
    const threads = await t.app.inject({ method: 'GET', url: '/api/conversations', headers: world.sellerHeaders });
    const [offer] = threads.json().data[0].offers;
    expect(offer).toMatchObject({ _id: world.offerId, senderId: world.buyer.id, amount: 90, status: 'open' });
    expect(new Date(offer.expiresAt).getTime() - new Date(offer.createdAt).getTime()).toBeCloseTo(48 * HOUR, -4);
    const events = await t.db.select().from(liveEvents).where(eq(liveEvents.userId, world.seller.id));
    expect(events.map((event) => event.type)).toContain('offer.changed');
  });

  it('refuses the asking price or more, a second open offer, and a piece that is not available', async () => {
    const world = await openOffer(90);
    const second = await makeOffer(t.app, world.buyerHeaders, world.conversationId, 80);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(conversationMessages.offerAlreadyOpen);

    const other = await productAndBuyer(t.app, t.db);
    const id = await startThread(t.app, other.buyerHeaders, other.product.id);
    const atAsking = await makeOffer(t.app, other.buyerHeaders, id, 150);
    expect(atAsking.statusCode).toBe(409);
    expect(atAsking.json().message).toBe(conversationMessages.offerAboveAsking);

    await listingStep(t.app, other.sellerHeaders, other.product.id, 'withdraw');
    const gone = await makeOffer(t.app, other.buyerHeaders, id, 100);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe(conversationMessages.offerNotAvailable);
  });
});

describe('answering an offer', () => {
  it('a counter-offer replaces the offer; the buyer accepting it books the piece at that price, and the payment is that price', async () => {
    const world = await openOffer(90);
    const countered = await answer(t.app, world.sellerHeaders, world.offerId, 'counter', 120);
    expect(countered.statusCode).toBe(200);
    expect(countered.json().data.offer).toMatchObject({ _id: world.offerId, status: 'countered' });
    const counterId = countered.json().data.counter._id as string;
    expect(countered.json().data.counter).toMatchObject({ senderId: world.seller.id, amount: 120, status: 'open' });

    // The seller cannot answer their own counter-offer; the buyer can.
    expect((await answer(t.app, world.sellerHeaders, counterId, 'accept')).statusCode).toBe(404);
    const accepted = await answer(t.app, world.buyerHeaders, counterId, 'accept');
    expect(accepted.statusCode).toBe(200);
    const bookingId = accepted.json().data.bookingId as string;
    expect(await bookingRow(t.db, bookingId)).toMatchObject({ status: 'accepted', productPrice: '120.00', buyerId: world.buyer.id });
    expect(await productRow(t.db, world.product.id)).toMatchObject({ state: 'reserved', resalePrice: '150.00' });

    // The request cannot name the amount: the intent is for the agreed $120, not the asking $150.
    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    const [intent] = await t.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, transactionId));
    expect(intent!.amountCents).toBe(12_000);
    expect((await postPayment(t.app, world.buyerHeaders, { transactionId, productId: world.product.id, bookingId })).statusCode).toBe(200);
    expect((await paymentsOfProduct(t.db, world.product.id)).map((payment) => payment.amountCents)).toEqual([12_000]);
    expect(await productRow(t.db, world.product.id)).toMatchObject({ state: 'sold' });
  });

  it('lists the thread as taking offers while the piece is for sale, and not once an accepted offer books it', async () => {
    const world = await openOffer(100);
    expect(await takesOffers(world.buyerHeaders, world.conversationId)).toBe(true);
    expect((await answer(t.app, world.sellerHeaders, world.offerId, 'accept')).statusCode).toBe(200);
    expect(await takesOffers(world.buyerHeaders, world.conversationId)).toBe(false);
    expect(await takesOffers(world.sellerHeaders, world.conversationId)).toBe(false);
  });

  it('gives the buyer the booking an accepted offer made to pay, until it is paid, and the seller none', async () => {
    const world = await openOffer(100);
    expect((await listedThread(world.buyerHeaders, world.conversationId)).payableBookingId).toBeNull();
    const accepted = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    const bookingId = accepted.json().data.bookingId as string;
    expect((await listedThread(world.buyerHeaders, world.conversationId)).payableBookingId).toBe(bookingId);
    expect((await listedThread(world.sellerHeaders, world.conversationId)).payableBookingId).toBeNull();

    const { transactionId } = await payByCard(t.app, world.buyerHeaders, bookingId);
    expect((await postPayment(t.app, world.buyerHeaders, { transactionId, productId: world.product.id, bookingId })).statusCode).toBe(200);
    expect((await listedThread(world.buyerHeaders, world.conversationId)).payableBookingId).toBeNull();
  });

  it('lists the thread as taking no offers once an admin takes the piece out of the market', async () => {
    const world = await openOffer(100);
    await t.db.update(products).set({ moderation: 'hidden' }).where(eq(products.id, world.product.id));
    expect(await takesOffers(world.buyerHeaders, world.conversationId)).toBe(false);
  });

  it('accepting an offer tells nobody it was closed, although booking reserves the piece', async () => {
    const world = await openOffer(100);
    expect((await answer(t.app, world.sellerHeaders, world.offerId, 'accept')).statusCode).toBe(200);
    expect(await offerStatus(world.offerId)).toBe('accepted');
    const told = await t.db.select({ text: notifications.text }).from(notifications);
    expect(told.map((row) => row.text)).not.toContain(notificationTexts.offerClosed('$100.00', world.product.productName));
  });

  it('the seller accepting updates the buyer’s existing booking to the agreed price', async () => {
    const world = await openOffer(100);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: world.buyerHeaders,
      payload: { productId: world.product.id, phoneNumber: '01712345678', location: 'Gulshan' },
    });
    const accepted = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    expect(accepted.json().data.bookingId).toBe(booked.json().data._id);
    expect(await bookingRow(t.db, booked.json().data._id)).toMatchObject({ status: 'accepted', productPrice: '100.00', phoneNumber: '01712345678' });
  });

  it('books with the phone number and meeting place the buyer gave with the offer', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const conversationId = await startThread(t.app, world.buyerHeaders, world.product.id);
    const offered = await makeOffer(t.app, world.buyerHeaders, conversationId, 90, { phoneNumber: '01711111111', location: 'Dhanmondi lake gate' });
    expect(offered.statusCode).toBe(201);
    const accepted = await answer(t.app, world.sellerHeaders, offered.json().data._id, 'accept');
    expect(await bookingRow(t.db, accepted.json().data.bookingId)).toMatchObject({ phoneNumber: '01711111111', location: 'Dhanmondi lake gate' });
  });

  it('books with the details the buyer gives when accepting the seller’s counter-offer', async () => {
    const world = await openOffer(90);
    const counterId = (await answer(t.app, world.sellerHeaders, world.offerId, 'counter', 120)).json().data.counter._id;
    const accepted = await answer(t.app, world.buyerHeaders, counterId, 'accept', undefined, { phoneNumber: '+880 1722 222222', location: 'Banani, road 11' });
    expect(accepted.statusCode).toBe(200);
    expect(await bookingRow(t.db, accepted.json().data.bookingId)).toMatchObject({ phoneNumber: '+880 1722 222222', location: 'Banani, road 11' });
  });

  it('without details, books with the phone of the buyer’s settings and the listing’s town', async () => {
    const world = await openOffer(90);
    await t.db.update(users).set({ phone: '01733333333' }).where(eq(users.id, world.buyer.id));
    const accepted = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    expect(await bookingRow(t.db, accepted.json().data.bookingId)).toMatchObject({ phoneNumber: '01733333333', location: world.product.location });
  });

  it('refuses meeting details a booking would refuse, naming what is wrong', async () => {
    const world = await productAndBuyer(t.app, t.db);
    const conversationId = await startThread(t.app, world.buyerHeaders, world.product.id);
    const badPhone = await makeOffer(t.app, world.buyerHeaders, conversationId, 90, { phoneNumber: 'call me', location: 'Gulshan' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().message).toMatch(/phoneNumber must be a phone number/);
    const emptyPlace = await makeOffer(t.app, world.buyerHeaders, conversationId, 90, { phoneNumber: '01711111111', location: '  ' });
    expect(emptyPlace.statusCode).toBe(400);
    expect(emptyPlace.json().message).toMatch(/location is required/);
  });

  it('of two counter-offers at once, exactly one wins', async () => {
    const world = await openOffer(90);
    const results = await Promise.all([
      answer(t.app, world.sellerHeaders, world.offerId, 'counter', 130),
      answer(t.app, world.sellerHeaders, world.offerId, 'counter', 125),
    ]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((result) => result.statusCode === 409)!.json().message).toBe(conversationMessages.offerNotOpen.countered);
    const { rows } = await t.db.execute(sql`select 1 from offers where conversation_id = ${world.conversationId} and status = 'open'`);
    expect(rows).toHaveLength(1);
  });

  it('of an accept and a decline at once, exactly one wins', async () => {
    const world = await openOffer(90);
    const [accepted, declined] = await Promise.all([
      answer(t.app, world.sellerHeaders, world.offerId, 'accept'),
      answer(t.app, world.sellerHeaders, world.offerId, 'decline'),
    ]);
    expect([accepted.statusCode, declined.statusCode].sort()).toEqual([200, 409]);
    const status = await offerStatus(world.offerId);
    expect(status).toBe(accepted.statusCode === 200 ? 'accepted' : 'declined');
    expect((await productRow(t.db, world.product.id)).state).toBe(accepted.statusCode === 200 ? 'reserved' : 'available');
  });

  it('an offer expires after 48 hours by the job queue, and then cannot be accepted', async () => {
    const world = await openOffer(90);
    const { rows } = await t.db.execute<{ id: string }>(sql`select id::text from graphile_worker.jobs where key = ${`offer-expiry:${world.offerId}`}`);
    const expired = nextOutcome(t.app, (outcome) => outcome.id === rows[0]!.id && outcome.status === 'succeeded');
    await advanceJobClock(t.db, 48 * HOUR);
    await expired;
    expect(await offerStatus(world.offerId)).toBe('expired');
    const late = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(conversationMessages.offerNotOpen.expired);
    expect((await productRow(t.db, world.product.id)).state).toBe('available');
    // The buyer may offer again.
    expect((await makeOffer(t.app, world.buyerHeaders, world.conversationId, 95)).statusCode).toBe(201);
  });

  it('a piece sold elsewhere closes its open offers, which can no longer be accepted, and tells both sides', async () => {
    const world = await openOffer(90);
    expect((await listingStep(t.app, world.sellerHeaders, world.product.id, 'sold-elsewhere')).statusCode).toBe(200);
    expect(await offerStatus(world.offerId)).toBe('declined');
    const told = await t.db
      .select({ userId: notifications.userId, link: notifications.link })
      .from(notifications)
      .where(eq(notifications.text, notificationTexts.offerClosed('$90.00', world.product.productName)));
    expect(told.map((row) => row.userId).sort()).toEqual([world.buyer.id, world.seller.id].sort());
    expect(told[0]!.link).toBe(`/dashboard/messages?thread=${world.conversationId}`);
    const events = await t.db.select().from(liveEvents).where(and(eq(liveEvents.userId, world.buyer.id), eq(liveEvents.type, 'offer.changed')));
    expect(events.at(-1)!.data).toMatchObject({ conversationId: world.conversationId, offer: { _id: world.offerId, status: 'declined' } });
    const late = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(conversationMessages.offerNotOpen.declined);
  });

  it('a piece reserved for another buyer cannot be had by accepting an offer', async () => {
    const world = await openOffer(90);
    const rival = await productAndBuyer(t.app, t.db);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: rival.buyerHeaders,
      payload: { productId: world.product.id, phoneNumber: '01712345678', location: 'Gulshan' },
    });
    const accept = await t.app.inject({ method: 'POST', url: `/api/bookings/${booked.json().data._id}/accept`, headers: world.sellerHeaders });
    expect(accept.statusCode).toBe(200);
    // Reserving the piece closed the open offer.
    const late = await answer(t.app, world.sellerHeaders, world.offerId, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(conversationMessages.offerNotOpen.declined);
  });
});
