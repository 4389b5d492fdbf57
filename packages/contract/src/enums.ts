export const userRoles = ['buyer', 'seller', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

/** Roles a person may choose for themselves; admin is only ever granted. */
export const selfServiceRoles = ['buyer', 'seller'] as const;
export type SelfServiceRole = (typeof selfServiceRoles)[number];

export const conditions = ['Excellent', 'Good', 'Fair'] as const;
export type Condition = (typeof conditions)[number];

/** inStock values: only 'available' permits wishing and booking. */
export const stockStates = ['available', 'sold'] as const;
export type StockState = (typeof stockStates)[number];

export const paymentStatuses = ['unpaid', 'paid'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * open: booked, waiting for the seller; accepted: the seller chose this buyer; declined: the seller
 * said no, or the piece went to someone else; cancelled: the buyer withdrew, or the seller refunded
 * the sale; paid: the sale happened; closed: handed over.
 */
export const bookingStatuses = ['open', 'accepted', 'declined', 'cancelled', 'paid', 'closed'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/**
 * available: can be booked and paid; reserved: the seller accepted a booking; sold: paid, or sold
 * elsewhere; withdrawn: taken off by the seller; expired: not renewed in time. Only withdrawn and
 * expired listings are hidden from the public.
 */
export const listingStates = ['available', 'reserved', 'sold', 'withdrawn', 'expired'] as const;
export type ListingState = (typeof listingStates)[number];

/** held: waiting for the buyer's word or the release date; frozen: the buyer reported a problem; released; refunded. */
export const fundsStates = ['held', 'frozen', 'released', 'refunded'] as const;
export type FundsState = (typeof fundsStates)[number];
