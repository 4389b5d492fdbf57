import type { BookingStatus } from './enums.ts';
import { saleTexts } from './sale-texts.ts';

/**
 * What each side of a booking reads and may do in each of its states (decision 20). The server's
 * transitions are this table with their refusals (sale-transitions.ts), and the screens show a
 * step's button only where the table allows it, so a button never offers what the server refuses.
 */

export type SaleSide = 'buyer' | 'seller';

interface BookingStepRule {
  by: SaleSide;
  from: readonly BookingStatus[];
  to: BookingStatus;
}

export const bookingSteps = {
  accept: { by: 'seller', from: ['open'], to: 'accepted' },
  decline: { by: 'seller', from: ['open', 'accepted'], to: 'declined' },
  cancel: { by: 'buyer', from: ['open', 'accepted'], to: 'cancelled' },
  handover: { by: 'seller', from: ['paid'], to: 'closed' },
  // A handed-over sale is closed, and its buyer can still confirm receipt while its money is held.
  received: { by: 'buyer', from: ['paid', 'closed'], to: 'closed' },
  refund: { by: 'seller', from: ['paid'], to: 'cancelled' },
} as const satisfies Record<string, BookingStepRule>;
export type BookingStep = keyof typeof bookingSteps;

/** A booking as either side's screen knows it: its status, whether its piece is still on sale, and whether it is paid. */
export interface BookingState {
  status: BookingStatus;
  pieceAvailable: boolean;
  paid: boolean;
}

/**
 * Whether the buyer can pay now: the booking the seller accepted, or an open booking of a piece
 * still available (the first payment wins). The server decides again under its locks.
 */
export function canPay({ status, pieceAvailable, paid }: BookingState): boolean {
  return !paid && (status === 'accepted' || (status === 'open' && pieceAvailable));
}

/** The steps one side may take on the booking now; a seller accepts only while the piece is on sale. */
export function bookingStepsOf(side: SaleSide, booking: BookingState): BookingStep[] {
  return (Object.keys(bookingSteps) as BookingStep[]).filter((step) => {
    const rule: BookingStepRule = bookingSteps[step];
    return rule.by === side && rule.from.includes(booking.status) && (step !== 'accept' || booking.pieceAvailable);
  });
}

/** One side's sentence for the booking: a buyer who may pay at once is not told to wait. */
export function bookingSentence(side: SaleSide, booking: BookingState): string {
  if (side === 'buyer' && booking.status === 'open' && canPay(booking)) return saleTexts.bookedPayNow;
  return saleTexts.bookingStatus[booking.status][side];
}

/** The buyer's booking (My Orders) as a booking state: the specification's inStock and paymentStatus. */
export const buyerBookingState = (booking: { status: BookingStatus; inStock: string; paymentStatus: string }): BookingState => ({
  status: booking.status,
  pieceAvailable: booking.inStock === 'available',
  paid: booking.paymentStatus !== 'unpaid',
});

/** A booking on the seller's piece (Bookings on my products) as a booking state. */
export const sellerBookingState = (booking: { status: BookingStatus; productState: string | null; paid: boolean }): BookingState => ({
  status: booking.status,
  pieceAvailable: booking.productState === 'available',
  paid: booking.paid,
});
