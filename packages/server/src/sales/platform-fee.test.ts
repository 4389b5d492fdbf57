import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { platformFeeCents } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../db/schema/index.ts';
import { answer, makeOffer, productAndBuyer, startThread } from '../../test/conversation-fixtures.ts';
import { payByCard, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow } from '../../test/sale-fixtures.ts';

/**
 * The platform's fee (decision 33) is computed once, when a booking is made, whichever way it is
 * made, and the ledger charges exactly that fee when the booking is paid. 0.7% of $55.00 is 38.5
 * cents: a fee computed twice in two ways can round it apart.
 */

const fee = { percent: 0.7, fixedCents: 25 };
const t = setupTestApp({ fee });

/** The fee the ledger charged for a booking's sale: what the platform's held account received. */
async function chargedFee(bookingId: string) {
  const rows = await t.db
    .select({ amountCents: ledgerEntries.amountCents })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'charge'), eq(ledgerAccounts.kind, 'held'), isNull(ledgerAccounts.sellerId)));
  return rows.map((row) => row.amountCents);
}

async function pay(headers: Record<string, string>, productId: string, bookingId: string) {
  const { transactionId } = await payByCard(t.app, headers, bookingId);
  expect((await postPayment(t.app, headers, { transactionId, productId, bookingId })).statusCode).toBe(200);
}

describe('the platform fee', () => {
  const expected = platformFeeCents(5_500, fee);

  it('is the fee the browser shows: 39 cents (38.5 rounded up) and the fixed 25', () => {
    expect(expected).toBe(64);
  });

  it('of a booking made from the listing is fixed on it, shown to the seller with what they receive, and the ledger charges that fee', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '55.00' });
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: world.buyerHeaders,
      payload: { productId: world.product.id, phoneNumber: '01712345678', location: 'Mirpur' },
    });
    expect(booked.statusCode).toBe(201);
    const bookingId = booked.json().data._id as string;
    expect(await bookingRow(t.db, bookingId)).toMatchObject({ feeCents: expected });
    const listed = await t.app.inject({ method: 'GET', url: '/api/seller/bookings', headers: world.sellerHeaders });
    expect(listed.json().data).toEqual([expect.objectContaining({ _id: bookingId, agreedPriceCents: 5_500, feeCents: expected, sellerReceivesCents: 5_500 - expected })]);
    await pay(world.buyerHeaders, world.product.id, bookingId);
    expect(await chargedFee(bookingId)).toEqual([expected]);
  });

  it('of a booking made by an accepted offer is fixed on it the same way, and the ledger charges that fee', async () => {
    const world = await productAndBuyer(t.app, t.db, { resalePrice: '80.00' });
    const conversationId = await startThread(t.app, world.buyerHeaders, world.product.id, 'Would you take 55?');
    const offered = await makeOffer(t.app, world.buyerHeaders, conversationId, 55);
    const accepted = await answer(t.app, world.sellerHeaders, offered.json().data._id as string, 'accept');
    expect(accepted.statusCode).toBe(200);
    const bookingId = accepted.json().data.bookingId as string;
    expect(await bookingRow(t.db, bookingId)).toMatchObject({ productPrice: '55.00', feeCents: expected });
    await pay(world.buyerHeaders, world.product.id, bookingId);
    expect(await chargedFee(bookingId)).toEqual([expected]);
  });
});
