import { z } from 'zod';
import { bookingStatuses, listingStates, type BookingStatus } from './enums.ts';
import { listingAppeal, moderationStates } from './trust.ts';
import { addProductBody, bookingProtection, product } from './schemas.ts';
import { saleTexts } from './sale-texts.ts';

/**
 * The seller's side of a sale: the states of a booking and of a listing (decision 20), the calls
 * that move them, and what they tell people.
 */

/** A listing expires this many days after it was posted, last edited or renewed. */
export const LISTING_LIFETIME_DAYS = 60;
/** Its seller is reminded this many days before it expires. */
export const LISTING_EXPIRY_REMINDER_DAYS = 7;
export const DECLINE_REASON_MAX_LENGTH = 300;

/** Why a sale's step was refused (409), and the reasons the system gives a booking. */
export const saleMessages = {
  bookingNotFound: 'No booking with this id among the bookings you can act on.',
  productNotFound: 'No product with this id among your products.',
  acceptNotOpen: 'Only a booking that is waiting for your answer can be accepted.',
  acceptNotAvailable: 'This piece is not available any more, so no booking can be accepted.',
  declineNotOpen: 'Only a booking that is waiting or accepted and not yet paid can be declined.',
  cancelNotOpen: 'Only a booking that is not paid yet can be cancelled. A paid sale is cancelled by the seller’s refund.',
  handoverNotPaid: 'Only a paid booking can be handed over.',
  receivedNotPaid: 'Only a paid booking can be confirmed as received.',
  refundNotPaid: 'Only a paid sale that has not been handed over can be refunded.',
  payNotPossible: {
    declined: 'The seller declined this booking, so it cannot be paid.',
    cancelled: 'This booking was cancelled, so it cannot be paid.',
    paid: 'This booking is already paid.',
    closed: 'This sale is closed.',
    reservedForAnother: 'The seller has accepted another buyer’s booking for this piece.',
    notAvailable: 'This piece is not available any more.',
  },
  editSold: 'This piece is sold, so its listing cannot be changed.',
  renewNotPossible: 'Only an available, expired or withdrawn listing can be renewed.',
  withdrawNotPossible: 'Only an available or expired listing can be withdrawn. Decline the accepted booking first.',
  soldElsewhereNotPossible: 'This piece is already sold.',
  /** Reasons the system writes on bookings it closes. */
  reasons: {
    wentToAnotherBuyer: 'The seller accepted another buyer for this piece.',
    soldToAnotherBuyer: 'This piece was sold to another buyer.',
    soldElsewhere: 'The seller sold this piece elsewhere.',
    withdrawn: 'The seller took this listing down.',
    refunded: 'The seller cancelled the sale and refunded your payment.',
    cancelledByBuyer: 'You cancelled this booking.',
  },
  accepted: (productName: string) => `You accepted this booking for ${productName}. The buyer can pay now.`,
  declined: 'The booking is declined; the buyer sees your reason in My Orders.',
  cancelled: 'Your booking is cancelled.',
  handedOver: 'Marked as handed over. The sale is closed; its money is released to you when the buyer confirms, or automatically after the buyer-protection period.',
  received: 'Thank you for confirming. The sale is closed and the seller is paid.',
  refunded: 'The sale is cancelled and the payment refunded. The piece is available again.',
  refundPending: 'The sale is cancelled and the piece is available again; the refund is being processed.',
  edited: (productName: string) => `${productName} is updated`,
  renewed: (productName: string) => `${productName} is listed again for ${LISTING_LIFETIME_DAYS} days`,
  withdrawnDone: (productName: string) => `${productName} is taken down`,
  soldElsewhereDone: (productName: string) => `${productName} is marked as sold`,
} as const;

export const declineBookingBody = z.object({
  reason: z
    .string({ error: 'Please give the buyer a short reason.' })
    .trim()
    .min(1, 'Please give the buyer a short reason.')
    .max(DECLINE_REASON_MAX_LENGTH, `The reason must be at most ${DECLINE_REASON_MAX_LENGTH} characters.`),
});
export type DeclineBookingBody = z.infer<typeof declineBookingBody>;

/** PATCH /api/products/{id}: any of the listing's own fields; the seller and state are not editable. */
export const editProductBody = addProductBody
  .omit({ categoryName: true, sellerName: true, sellerEmail: true })
  .partial()
  .extend({ measurements: addProductBody.shape.measurements.unwrap().nullable().optional() });
export type EditProductBody = z.infer<typeof editProductBody>;

/** A booking on one of the seller's products, as the seller sees it. */
export const sellerBooking = z.object({
  _id: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  productImage: z.string(),
  productPrice: z.number(),
  /** The booking's agreed price (decision 32), the platform's fee fixed on it (decision 33), and what is left for the seller, in cents. */
  agreedPriceCents: z.number().int(),
  feeCents: z.number().int(),
  sellerReceivesCents: z.number().int(),
  productState: z.enum(listingStates).nullable(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  phoneNumber: z.string(),
  location: z.string(),
  bookedAt: z.string(),
  paid: z.boolean(),
  status: z.enum(bookingStatuses),
  statusReason: z.string().nullable(),
  ...bookingProtection.shape,
});
export type SellerBooking = z.infer<typeof sellerBooking>;

/** A listing in the seller's own list (My Products): when it expires, and how much interest it has. */
export const sellerProduct = product.extend({
  expiresAt: z.string(),
  views: z.number(),
  wishCount: z.number(),
  bookingCount: z.number(),
  /** An admin took the listing out of public lists (decision 23), and why; null otherwise. */
  moderation: z.enum(moderationStates).nullable(),
  moderationReason: z.string().nullable(),
  /** The seller's latest appeal of a hiding, and its answer; null when there is none. */
  appeal: listingAppeal.nullable(),
  /** Hidden by an admin and not yet appealed: the seller can appeal once. */
  canAppeal: z.boolean(),
});
export type SellerProduct = z.infer<typeof sellerProduct>;

/** Whether the buyer can still have the piece: a piece reserved for them is not "sold". */
export function buyerStock(booking: { status: BookingStatus; inStock: string; paymentStatus: string }): string {
  if (booking.paymentStatus === 'paid') return saleTexts.buyerStock.yours;
  if (booking.inStock === 'available') return saleTexts.buyerStock.available;
  return booking.status === 'accepted' ? saleTexts.buyerStock.reservedForYou : saleTexts.buyerStock.gone;
}
