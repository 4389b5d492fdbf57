import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerMessages, saleMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createUser, createWish } from '../demo/factories.ts';
import { liveEvents, simulatedPaymentIntents } from '../db/schema/index.ts';
import { createIntent, payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow, bookingStep, listingStep, productRow, saleOf } from '../../test/sale-fixtures.ts';

const t = setupTestApp();

type Sale = Awaited<ReturnType<typeof saleOf>>;

/** The buyer at `index` pays for their booking by card and posts the payment record. */
async function pay(sale: Sale, index = 0) {
  const { booking, headers } = sale.buyers[index]!;
  const { transactionId } = await payByCard(t.app, headers, booking.id);
  return postPayment(t.app, headers, { transactionId, productId: sale.product.id, bookingId: booking.id });
}

async function myOrders(sale: Sale, index = 0) {
  const { user, headers } = sale.buyers[index]!;
  const response = await t.app.inject({ method: 'GET', url: `/api/booking?email=${user.email}`, headers });
  return response.json().data as Array<{ _id: string; status: string; statusReason: string | null; paymentStatus: string }>;
}

describe('GET /api/seller/bookings', () => {
  it('lists every booking on the caller’s products, newest first, with the buyer, the meeting, the status and what the seller receives', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const elsewhere = await saleOf(t.app, t.db);
    const response = await t.app.inject({ method: 'GET', url: '/api/seller/bookings', headers: sale.sellerHeaders });
    expect(response.statusCode).toBe(200);
    const [first, second] = sale.buyers;
    expect(response.json().data).toEqual([
      expect.objectContaining({
        _id: second!.booking.id,
        productId: sale.product.id,
        productName: sale.product.productName,
        productState: 'available',
        agreedPriceCents: 15_000,
        feeCents: 1_500,
        sellerReceivesCents: 13_500,
        buyerName: second!.user.name,
        buyerEmail: second!.user.email,
        phoneNumber: second!.booking.phoneNumber,
        location: second!.booking.location,
        bookedAt: second!.booking.createdAt.toISOString(),
        paid: false,
        status: 'open',
        statusReason: null,
      }),
      expect.objectContaining({ _id: first!.booking.id }),
    ]);
    expect(JSON.stringify(response.json())).not.toContain(elsewhere.buyers[0]!.booking.id);
  });
});

describe('accept', () => {
  it('reserves the piece for one buyer; the other bookings are declined and cannot pay, the accepted one can', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const [chosen, other] = sale.buyers;

    const accepted = await bookingStep(t.app, sale.sellerHeaders, chosen!.booking.id, 'accept');
    expect(accepted.json()).toEqual({ success: true, message: saleMessages.accepted(sale.product.productName) });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'reserved', inStock: 'sold' });
    expect((await myOrders(sale, 1))[0]).toMatchObject({ status: 'declined', statusReason: saleMessages.reasons.wentToAnotherBuyer });

    const refused = await createIntent(t.app, other!.headers, other!.booking.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(saleMessages.payNotPossible.declined);

    expect((await pay(sale, 0)).statusCode).toBe(200);
    expect(await bookingRow(t.db, chosen!.booking.id)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'sold', inStock: 'sold' });
  });

  it('refuses a booking that is not open, and any booking once the piece is reserved or gone', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const [first, second] = sale.buyers;
    await bookingStep(t.app, sale.sellerHeaders, first!.booking.id, 'accept');

    const again = await bookingStep(t.app, sale.sellerHeaders, first!.booking.id, 'accept');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(saleMessages.acceptNotOpen);
    const declinedOne = await bookingStep(t.app, sale.sellerHeaders, second!.booking.id, 'accept');
    expect(declinedOne.json().message).toBe(saleMessages.acceptNotOpen);

    // A booking on a listing that is off the market cannot be accepted until the listing is renewed.
    const expired = await saleOf(t.app, t.db);
    await listingStep(t.app, expired.sellerHeaders, expired.product.id, 'withdraw');
    const lateBuyer = await createUser(t.db, { role: 'buyer' });
    const late = await createBooking(t.db, expired.product, lateBuyer.id);
    const onWithdrawn = await bookingStep(t.app, expired.sellerHeaders, late.id, 'accept');
    expect(onWithdrawn.statusCode).toBe(409);
    expect(onWithdrawn.json().message).toBe(saleMessages.acceptNotAvailable);
  });

  it('is the product’s seller’s alone: another seller is told there is no such booking', async () => {
    const sale = await saleOf(t.app, t.db);
    const stranger = await createUser(t.db, { role: 'seller' });
    const response = await bookingStep(t.app, await bearer(t.app, stranger.id), sale.buyers[0]!.booking.id, 'accept');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(saleMessages.bookingNotFound);
    expect(await bookingRow(t.db, sale.buyers[0]!.booking.id)).toMatchObject({ status: 'open' });
  });
});

describe('decline', () => {
  it('closes a booking with the seller’s reason, which the buyer reads in My Orders, and frees a reserved piece', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking } = sale.buyers[0]!;
    await bookingStep(t.app, sale.sellerHeaders, booking.id, 'accept');

    const declined = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'decline', { reason: '  Promised to my sister  ' });
    expect(declined.json()).toEqual({ success: true, message: saleMessages.declined });
    expect((await myOrders(sale))[0]).toMatchObject({ _id: booking.id, status: 'declined', statusReason: 'Promised to my sister' });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available', inStock: 'available' });
  });

  it('needs a reason, and refuses a paid booking', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking } = sale.buyers[0]!;
    const noReason = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'decline', { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('reason: Please give the buyer a short reason.');

    await pay(sale);
    const paid = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'decline', { reason: 'Changed my mind' });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(saleMessages.declineNotOpen);
  });
});

describe('cancel (buyer)', () => {
  it('cancels an open or accepted booking; an accepted one gives the piece back; a paid one is refused', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const [first, second] = sale.buyers;
    const open = await bookingStep(t.app, second!.headers, second!.booking.id, 'cancel');
    expect(open.json()).toEqual({ success: true, message: saleMessages.cancelled });
    expect(await bookingRow(t.db, second!.booking.id)).toMatchObject({ status: 'cancelled' });

    await bookingStep(t.app, sale.sellerHeaders, first!.booking.id, 'accept');
    await bookingStep(t.app, first!.headers, first!.booking.id, 'cancel');
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available' });
    const cancelledPays = await createIntent(t.app, first!.headers, first!.booking.id);
    expect(cancelledPays.json().message).toBe(saleMessages.payNotPossible.cancelled);

    const paidSale = await saleOf(t.app, t.db);
    await pay(paidSale);
    const paid = await bookingStep(t.app, paidSale.buyers[0]!.headers, paidSale.buyers[0]!.booking.id, 'cancel');
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(saleMessages.cancelNotOpen);
  });

  it('is the booking’s buyer’s alone', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const response = await bookingStep(t.app, sale.buyers[1]!.headers, sale.buyers[0]!.booking.id, 'cancel');
    expect(response.statusCode).toBe(404);
  });

  it('deleting an accepted booking from My Orders gives the piece back too', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking, headers } = sale.buyers[0]!;
    await bookingStep(t.app, sale.sellerHeaders, booking.id, 'accept');
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${booking.id}`, headers });
    expect(deleted.statusCode).toBe(200);
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available', inStock: 'available' });
  });
});

describe('handover and received', () => {
  it('the seller’s handover closes a paid sale; its buyer can still confirm receipt, once', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking, headers } = sale.buyers[0]!;
    const unpaid = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'handover');
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().message).toBe(saleMessages.handoverNotPaid);

    await pay(sale);
    const handedOver = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'handover');
    expect(handedOver.json()).toEqual({ success: true, message: saleMessages.handedOver });
    expect((await myOrders(sale))[0]).toMatchObject({ status: 'closed', paymentStatus: 'paid' });

    expect((await bookingStep(t.app, headers, booking.id, 'received')).json()).toEqual({ success: true, message: saleMessages.received });
    const again = await bookingStep(t.app, headers, booking.id, 'received');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ledgerMessages.receivedNotHeld);
  });

  it('the buyer’s confirmation of receipt closes a paid sale, after which it cannot be refunded', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking, headers } = sale.buyers[0]!;
    expect((await bookingStep(t.app, headers, booking.id, 'received')).statusCode).toBe(409);
    await pay(sale);
    const received = await bookingStep(t.app, headers, booking.id, 'received');
    expect(received.json()).toEqual({ success: true, message: saleMessages.received });
    const refund = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'refund');
    expect(refund.statusCode).toBe(409);
    expect(refund.json().message).toBe(saleMessages.refundNotPaid);
  });
});

describe('refund (seller)', () => {
  it('cancels a paid sale through the payment provider, records the refund, and puts the piece back on sale', async () => {
    const sale = await saleOf(t.app, t.db);
    const { booking } = sale.buyers[0]!;
    const unpaid = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'refund');
    expect(unpaid.statusCode).toBe(409);

    await pay(sale);
    const refunded = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'refund');
    expect(refunded.json()).toEqual({ success: true, message: saleMessages.refunded });

    const [payment] = await paymentsOfProduct(t.db, sale.product.id);
    expect(payment).toMatchObject({ status: 'refunded', refundId: expect.stringMatching(/^re_/) });
    const [intent] = await t.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, payment!.transactionId));
    expect(intent!.refundId).toBe(payment!.refundId);
    expect(await bookingRow(t.db, booking.id)).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'unpaid',
      statusReason: saleMessages.reasons.refunded,
    });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available', inStock: 'available', soldAt: null });

    const twice = await bookingStep(t.app, sale.sellerHeaders, booking.id, 'refund');
    expect(twice.statusCode).toBe(409);
  });
});

describe('paying', () => {
  it('refuses an open booking once the seller accepted another, and a declined one', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    const [first, second] = sale.buyers;
    await bookingStep(t.app, sale.sellerHeaders, first!.booking.id, 'accept');
    // A booking made before the reservation but answered after: the accept declined it.
    const response = await createIntent(t.app, second!.headers, second!.booking.id);
    expect(response.json().message).toBe(saleMessages.payNotPossible.declined);
    expect(await bookingRow(t.db, second!.booking.id)).toMatchObject({ status: 'declined' });
  });

  it('the first payment of an open booking wins and tells the other buyers the piece was sold', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    expect((await pay(sale, 0)).statusCode).toBe(200);
    expect((await myOrders(sale, 1))[0]).toMatchObject({ status: 'declined', statusReason: saleMessages.reasons.soldToAnotherBuyer });
  });
});

describe('PATCH /api/products/{id}', () => {
  it('changes the listing’s fields, records a price drop, tells the wishers and restarts its 60 days', async () => {
    const sale = await saleOf(t.app, t.db, { resalePrice: '200.00' });
    const wisher = await createUser(t.db, { role: 'buyer' });
    await createWish(t.db, { buyerId: wisher.id, productId: sale.product.id });
    const before = await productRow(t.db, sale.product.id);

    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${sale.product.id}`,
      headers: sale.sellerHeaders,
      payload: { productName: 'Oak table, extendable', resalePrice: 150, measurements: { widthCm: 160, depthCm: 90, heightCm: 75 } },
    });
    expect(response.json()).toEqual({ success: true, message: saleMessages.edited('Oak table, extendable') });

    const page = (await t.app.inject({ method: 'GET', url: `/api/products/${sale.product.id}` })).json();
    expect(page.data).toMatchObject({
      productName: 'Oak table, extendable',
      resalePrice: 150,
      description: sale.product.description,
      measurements: { widthCm: 160, depthCm: 90, heightCm: 75 },
      priceHistory: [
        { price: 200, changedAt: sale.product.postedAt.toISOString() },
        { price: 150, changedAt: expect.any(String) },
      ],
    });
    const after = await productRow(t.db, sale.product.id);
    expect(after.expiresAt.getTime()).toBeGreaterThan(before.expiresAt.getTime());

    const events = await t.db.select().from(liveEvents).where(and(eq(liveEvents.userId, wisher.id), eq(liveEvents.type, 'product.price-dropped')));
    expect(events.map((event) => event.data)).toEqual([
      { productId: sale.product.id, productName: 'Oak table, extendable', oldPrice: 200, newPrice: 150 },
    ]);
  });

  it('refuses another seller’s product (403), a sold one (409) and bad input (400), changing nothing', async () => {
    const sale = await saleOf(t.app, t.db);
    const stranger = await createUser(t.db, { role: 'seller' });
    const edit = (headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/products/${sale.product.id}`, headers, payload });

    expect((await edit(await bearer(t.app, stranger.id), { productName: 'Mine now' })).statusCode).toBe(403);
    const bad = await edit(sale.sellerHeaders, { resalePrice: -5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('resalePrice must be at least 0.01');

    await pay(sale);
    const sold = await edit(sale.sellerHeaders, { productName: 'Too late' });
    expect(sold.statusCode).toBe(409);
    expect(sold.json().message).toBe(saleMessages.editSold);
    expect((await productRow(t.db, sale.product.id)).productName).toBe(sale.product.productName);
  });
});

describe('renew, withdraw and sold elsewhere', () => {
  const publicLists = async (sale: Sale) => {
    const id = sale.product.id;
    const inCategory = await t.app.inject({ method: 'GET', url: `/api/category/${sale.category.id}`, headers: sale.sellerHeaders });
    const search = await t.app.inject({ method: 'GET', url: `/api/products?categoryId=${sale.category.id}&inStock=false` });
    const page = await t.app.inject({ method: 'GET', url: `/api/products/${id}` });
    return {
      category: inCategory.json().products.some((p: { _id: string }) => p._id === id),
      search: search.json().data.some((p: { _id: string }) => p._id === id),
      page: page.statusCode,
    };
  };
  const inMyProducts = async (sale: Sale) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/myProducts?email=${sale.seller.email}`, headers: sale.sellerHeaders });
    return response.json().data.find((p: { _id: string }) => p._id === sale.product.id);
  };

  it('a withdrawn listing leaves every public list but stays in the seller’s; renewing relists it', async () => {
    const sale = await saleOf(t.app, t.db);
    // Two openings of its page count as two views, the second answered from the response cache.
    for (const _ of [1, 2]) await t.app.inject({ method: 'GET', url: `/api/products/${sale.product.id}` });
    await t.app.productViews.flush();
    const withdrawn = await listingStep(t.app, sale.sellerHeaders, sale.product.id, 'withdraw');
    expect(withdrawn.json()).toEqual({ success: true, message: saleMessages.withdrawnDone(sale.product.productName) });
    expect(await publicLists(sale)).toEqual({ category: false, search: false, page: 410 });
    expect(await inMyProducts(sale)).toMatchObject({ state: 'withdrawn', inStock: 'sold', bookingCount: 1, wishCount: 0, views: 2 });
    expect(await bookingRow(t.db, sale.buyers[0]!.booking.id)).toMatchObject({
      status: 'declined',
      statusReason: saleMessages.reasons.withdrawn,
    });

    const renewed = await listingStep(t.app, sale.sellerHeaders, sale.product.id, 'renew');
    expect(renewed.json()).toEqual({ success: true, message: saleMessages.renewed(sale.product.productName) });
    expect(await publicLists(sale)).toEqual({ category: true, search: true, page: 200 });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available', inStock: 'available', renewedAt: expect.any(Date) });
  });

  it('refuses to withdraw a reserved listing, and to renew or mark a sold one', async () => {
    const sale = await saleOf(t.app, t.db);
    await bookingStep(t.app, sale.sellerHeaders, sale.buyers[0]!.booking.id, 'accept');
    const reserved = await listingStep(t.app, sale.sellerHeaders, sale.product.id, 'withdraw');
    expect(reserved.statusCode).toBe(409);
    expect(reserved.json().message).toBe(saleMessages.withdrawNotPossible);

    await pay(sale);
    for (const [action, message] of [
      ['renew', saleMessages.renewNotPossible],
      ['withdraw', saleMessages.withdrawNotPossible],
      ['sold-elsewhere', saleMessages.soldElsewhereNotPossible],
    ] as const) {
      const response = await listingStep(t.app, sale.sellerHeaders, sale.product.id, action);
      expect(response.statusCode, action).toBe(409);
      expect(response.json().message).toBe(message);
    }
  });

  it('sold elsewhere ends the listing as sold, declines the unpaid bookings and keeps it visible as sold', async () => {
    const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
    await bookingStep(t.app, sale.sellerHeaders, sale.buyers[0]!.booking.id, 'accept');
    const sold = await listingStep(t.app, sale.sellerHeaders, sale.product.id, 'sold-elsewhere');
    expect(sold.json()).toEqual({ success: true, message: saleMessages.soldElsewhereDone(sale.product.productName) });
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'sold', inStock: 'sold', soldAt: expect.any(Date) });
    expect((await myOrders(sale, 0))[0]).toMatchObject({ status: 'declined', statusReason: saleMessages.reasons.soldElsewhere });
    expect((await myOrders(sale, 1))[0]).toMatchObject({ status: 'declined', statusReason: saleMessages.reasons.wentToAnotherBuyer });
    expect(await publicLists(sale)).toEqual({ category: true, search: true, page: 200 });
  });

  it('only the product’s seller may change it', async () => {
    const sale = await saleOf(t.app, t.db);
    const stranger = await createUser(t.db, { role: 'seller' });
    const response = await listingStep(t.app, await bearer(t.app, stranger.id), sale.product.id, 'withdraw');
    expect(response.statusCode).toBe(403);
    expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available' });
  });
});
