import { describe, expect, it } from 'vitest';
import { bookingStatuses } from './enums.ts';
import { bookingSentence, bookingStepsOf, canPay, type BookingState } from './sale-steps.ts';
import { saleTexts } from './sale-texts.ts';

/**
 * Every booking status, as each side reads it and what each may do: the table of decision 20 that
 * the screens follow. A row per status; the piece still on sale and not paid unless said.
 */
const table = [
  { status: 'open', buyer: saleTexts.bookedPayNow, buyerSteps: ['cancel'], pay: true, seller: 'Waiting for your answer', sellerSteps: ['accept', 'decline'] },
  { status: 'accepted', pieceAvailable: false, buyer: 'Accepted: you can pay', buyerSteps: ['cancel'], pay: true, seller: 'Accepted: waiting for the buyer to pay', sellerSteps: ['decline'] },
  { status: 'declined', buyer: 'Declined', buyerSteps: [], pay: false, seller: 'Declined', sellerSteps: [] },
  { status: 'cancelled', buyer: 'Cancelled', buyerSteps: [], pay: false, seller: 'Cancelled', sellerSteps: [] },
  { status: 'paid', pieceAvailable: false, paid: true, buyer: 'Paid: meet to hand over', buyerSteps: ['received'], pay: false, seller: 'Paid: hand it over when you meet', sellerSteps: ['handover', 'refund'] },
  { status: 'closed', pieceAvailable: false, paid: true, buyer: 'Handed over', buyerSteps: ['received'], pay: false, seller: 'Handed over', sellerSteps: [] },
] as const;

describe('what each side of a booking reads and may do', () => {
  it('covers every status', () => {
    expect(table.map((row) => row.status)).toEqual([...bookingStatuses]);
  });

  it.each(table)('$status', (row) => {
    const booking: BookingState = { status: row.status, pieceAvailable: 'pieceAvailable' in row ? row.pieceAvailable : true, paid: 'paid' in row };
    expect(bookingSentence('buyer', booking)).toBe(row.buyer);
    expect(bookingSentence('seller', booking)).toBe(row.seller);
    expect(bookingStepsOf('buyer', booking)).toEqual(row.buyerSteps);
    expect(bookingStepsOf('seller', booking)).toEqual(row.sellerSteps);
    expect(canPay(booking)).toBe(row.pay);
  });

  it('tells a buyer whose open booking cannot be paid (the piece reserved for another) to wait, and offers no Pay nor Accept', () => {
    const booking: BookingState = { status: 'open', pieceAvailable: false, paid: false };
    expect(bookingSentence('buyer', booking)).toBe('Waiting for the seller');
    expect(canPay(booking)).toBe(false);
    expect(bookingStepsOf('seller', booking)).toEqual(['decline']);
  });
});
