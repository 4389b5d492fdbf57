import type { PriceGuideQuery } from '@furniture/contract';

/**
 * The query keys of the API's reads, one factory per feature. Every key of a feature starts with
 * that feature's `all`, so invalidating `all` refreshes every read of it. Features refresh each
 * other's reads (a sale changes products, a wish changes the product marks), and features do not
 * import one another, so the keys live here.
 */
export const productKeys = {
  all: ['products'] as const,
  search: (search: string) => [...productKeys.all, 'search', search] as const,
  category: (categoryId: string) => [...productKeys.all, 'category', categoryId] as const,
  one: (id: string) => [...productKeys.all, 'one', id] as const,
  advertised: () => [...productKeys.all, 'advertised'] as const,
  mine: (email: string) => [...productKeys.all, 'mine', email] as const,
};

/** Which products the signed-in person has wished for and booked. */
export const productMarkKeys = { all: ['product-marks'] as const };

export const categoryKeys = { all: ['categories'] as const };

export const sellerKeys = { page: (id: string) => ['sellers', id] as const };

export const priceGuideKeys = { of: (query: PriceGuideQuery | null) => ['price-guide', query] as const };

export const bookingKeys = {
  all: ['bookings'] as const,
  of: (email: string) => [...bookingKeys.all, email] as const,
  /** The seller's contact details, shown to a buyer whose booking was accepted. */
  sellerContact: (productId: string) => ['contact', productId] as const,
};

/** The bookings of the signed-in seller's listings. */
export const saleKeys = { sellerBookings: ['seller-bookings'] as const };

export const paymentKeys = {
  booking: (bookingId: string) => ['booking', bookingId] as const,
  intents: ['payment-intent'] as const,
  intent: (bookingId: string) => [...paymentKeys.intents, bookingId] as const,
};

export const wishKeys = {
  all: ['wishes'] as const,
  of: (email: string) => [...wishKeys.all, email] as const,
};

export const userKeys = {
  all: ['users'] as const,
  withRole: (role: string) => [...userKeys.all, role] as const,
  records: ['user-record'] as const,
  record: (email: string) => [...userKeys.records, email] as const,
};

/** The signed-in person's own account. */
export const accountKeys = {
  all: ['me'] as const,
  sessions: ['me', 'sessions'] as const,
  passkeys: ['me', 'passkeys'] as const,
  secondStep: ['me', 'second-step'] as const,
};

export const moderationKeys = {
  reports: ['reports'] as const,
  reportsWith: (status: string) => [...moderationKeys.reports, status] as const,
  contexts: ['report-context'] as const,
  context: (reportId: string) => [...moderationKeys.contexts, reportId] as const,
  audit: ['audit'] as const,
  auditPage: (cursor: string | null) => [...moderationKeys.audit, cursor] as const,
};

export const conversationKeys = {
  all: ['conversations'] as const,
  messages: ['messages'] as const,
  messagesOf: (conversationId: string) => [...conversationKeys.messages, conversationId] as const,
};

export const earningKeys = {
  all: ['earnings'] as const,
  payouts: ['payouts'] as const,
  payoutAccount: ['payout-account'] as const,
};

/** The admin's view of the marketplace's money. */
export const financeKeys = { all: ['finance'] as const };

export const notificationKeys = {
  all: ['notifications'] as const,
  settings: ['notification-settings'] as const,
};

export const appConfigKeys = { all: ['app-config'] as const };

/** Towns suggested for a typed place; the answers never change. */
export const placeKeys = { suggest: (q: string) => ['places', q] as const };
