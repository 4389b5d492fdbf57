/*
 * Apart from the schemas of sales.ts, so that pages which only show these words do not download zod
 * (docs/decisions/0026).
 */
import { counted } from './counted.ts';
import type { BookingStatus, ListingState } from './enums.ts';

/** Words of the seller's screens and of the sale's steps in My Orders. */
export const saleTexts = {
  sellerBookingsTitle: 'Bookings on my products',
  noSellerBookings: 'Nobody has booked your products yet.',
  newBookings: (count: number) => counted(count, 'new booking'),
  bookedAt: 'Booked',
  buyer: 'Buyer',
  messageBuyer: 'Message the buyer',
  phone: 'Phone',
  meetingLocation: 'Meeting location',
  paid: 'Paid',
  notPaid: 'Not paid yet',
  accept: 'Accept',
  decline: 'Decline',
  declineTitle: 'Decline this booking',
  declineReason: 'Reason the buyer will see',
  declineConfirm: 'Decline booking',
  handover: 'Handed over',
  confirmHandover: {
    title: (productName: string, buyerName: string) => `Did ${buyerName} get ${productName}?`,
    body: 'Confirm only once the buyer has the piece: the sale then closes, and this cannot be undone.',
    confirm: 'Yes, handed over',
    cancel: 'Not yet',
  },
  refund: 'Refund and cancel sale',
  confirmRefund: {
    title: (buyerName: string, amount: string) => `Refund ${amount} to ${buyerName}?`,
    body: (productName: string) =>
      `The sale of ${productName} is cancelled, the buyer gets the whole amount back, and the piece is listed again. This cannot be undone.`,
    confirm: 'Yes, refund',
    cancel: 'Keep the sale',
  },
  cancel: 'Cancel booking',
  received: 'I received it',
  status: 'Status',
  reason: 'Reason',
  state: 'State',
  interest: 'Views, wishes and bookings',
  interestValue: (views: number, wishes: number, bookings: number) =>
    `${counted(views, 'view')}, ${counted(wishes, 'wish', 'wishes')}, ${counted(bookings, 'booking')}`,
  expiresOn: (date: string) => `Expires ${date}`,
  edit: 'Edit',
  renew: 'Renew',
  relist: 'Relist',
  withdraw: 'Withdraw',
  soldElsewhere: 'Sold elsewhere',
  editTitle: 'Edit Product',
  saveChanges: 'Save changes',
  editNotFound: 'This listing is not among your products.',
  wasPrice: (price: string) => `was ${price}`,
  /** What the buyer reads of their booking in each state. */
  bookingStatus: {
    open: 'Waiting for the seller',
    accepted: 'Accepted: you can pay',
    declined: 'Declined',
    cancelled: 'Cancelled',
    paid: 'Paid: meet to hand over',
    closed: 'Handed over',
  } satisfies Record<BookingStatus, string>,
  /** The buyer's open booking of a piece still available: they may pay at once, before the seller answers. */
  bookedPayNow: 'Booked: pay now to secure it, or wait for the seller',
  /** What the seller reads of a booking on their piece in each state: the buyer's sentences are not theirs. */
  sellerBookingStatus: {
    open: 'Waiting for your answer',
    accepted: 'Accepted: waiting for the buyer to pay',
    declined: 'Declined',
    cancelled: 'Cancelled',
    paid: 'Paid: hand it over when you meet',
    closed: 'Handed over',
  } satisfies Record<BookingStatus, string>,
  /** Whether the buyer can still have the piece, as My Orders says it (not the listing's own word). */
  buyerStock: {
    available: 'Available',
    reservedForYou: 'Reserved for you',
    yours: 'Yours',
    gone: 'No longer available',
  },
  /** As the specification shows inStock: the word itself. */
  listingState: {
    available: 'available',
    reserved: 'reserved',
    sold: 'sold',
    withdrawn: 'withdrawn',
    expired: 'expired',
  } satisfies Record<ListingState, string>,
} as const;
