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
  /**
   * What each side reads of a booking in each state: the buyer's sentence is never the seller's
   * (sale-steps.ts says which steps each may take then).
   */
  bookingStatus: {
    open: { buyer: 'Waiting for the seller', seller: 'Waiting for your answer' },
    accepted: { buyer: 'Accepted: you can pay', seller: 'Accepted: waiting for the buyer to pay' },
    declined: { buyer: 'Declined', seller: 'Declined' },
    cancelled: { buyer: 'Cancelled', seller: 'Cancelled' },
    paid: { buyer: 'Paid: meet to hand over', seller: 'Paid: hand it over when you meet' },
    closed: { buyer: 'Handed over', seller: 'Handed over' },
  } satisfies Record<BookingStatus, Record<'buyer' | 'seller', string>>,
  /** The buyer's open booking of a piece still available: they may pay at once, before the seller answers. */
  bookedPayNow: 'Booked: pay now to secure it, or wait for the seller',
  /** Whether the buyer can still have the piece, as My Orders says it (not the listing's own word). */
  buyerStock: {
    available: 'Available',
    reservedForYou: 'Reserved for you',
    yours: 'Yours',
    gone: 'No longer available',
  },
  /**
   * What a listing's state says to its seller (My Products' Sales Status: the state's own word, as
   * the specification shows inStock) and to everyone else (a piece reserved is not yet sold).
   */
  listingState: {
    available: { seller: 'available', visitor: 'Available' },
    reserved: { seller: 'reserved', visitor: 'Reserved' },
    sold: { seller: 'sold', visitor: 'Sold' },
    withdrawn: { seller: 'withdrawn', visitor: 'No longer for sale' },
    expired: { seller: 'expired', visitor: 'No longer for sale' },
  } satisfies Record<ListingState, Record<'seller' | 'visitor', string>>,
} as const;
