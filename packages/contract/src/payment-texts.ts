/** The smallest card payment Stripe accepts in US dollars, in cents. */
export const MINIMUM_CHARGE_CENTS = 50;

/** "$150.00", the way the specification shows prices; a negative amount as "-$135.00". */
export function formatCents(cents: number): string {
  return `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** What the payment calls tell the buyer. */
export const paymentMessages = {
  bookingNotFound: 'Booking not found.',
  alreadyPaid: 'This booking is already paid.',
  productSold: 'Sorry, this product has already been sold to another buyer.',
  productGone: 'This product is no longer listed.',
  priceTooLow: `Card payments start at ${formatCents(MINIMUM_CHARGE_CENTS)}.`,
  priceChanged: (cents: number) =>
    `The price of this booking is now ${formatCents(cents)}. Reload the page to pay the new price.`,
  unknownTransaction: 'No payment with this transaction id was found.',
  otherBooking: 'This payment does not belong to this booking.',
  notSucceeded: (status: string) => `The payment has not succeeded yet (its status is ${status}).`,
  recorded: 'Your payment is recorded and the product is yours.',
  refunded: {
    'product-sold': (cents: number) =>
      `Sorry, this product was sold to another buyer just before your payment went through. Your payment of ${formatCents(cents)} has been refunded.`,
    'already-paid': (cents: number) =>
      `This booking was already paid, so this second payment of ${formatCents(cents)} has been refunded.`,
    'booking-gone': (cents: number) =>
      `This booking was deleted before the payment went through. Your payment of ${formatCents(cents)} has been refunded.`,
    'booking-closed': (cents: number) =>
      `This booking was declined or cancelled before the payment went through. Your payment of ${formatCents(cents)} has been refunded.`,
    'product-gone': (cents: number) =>
      `This product was removed before the payment went through. Your payment of ${formatCents(cents)} has been refunded.`,
    'price-changed': (cents: number) =>
      `The price of this booking changed before the payment went through. Your payment of ${formatCents(cents)} has been refunded.`,
  },
  refundPending: (cents: number) =>
    `Sorry, this product cannot be sold to you. Your payment of ${formatCents(cents)} will be refunded; the refund is being processed.`,
  simulatedInactive: 'The simulated payment provider is not active.',
  webhooksInactive: 'Stripe webhooks are not enabled: the active payment provider is the simulated one.',
  badSignature: 'The webhook signature is invalid.',
} as const;

/** The buyer's receipt for a card payment, sent by e-mail whatever their notification settings say. */
export const receiptTexts = {
  subject: (productName: string) => `Your receipt for ${productName}`,
  heading: (amount: string) => `Thank you: your payment of ${amount} is recorded.`,
  piece: (productName: string) => `Piece: ${productName}`,
  seller: (sellerName: string) => `Seller: ${sellerName}`,
  amount: (amount: string) => `Amount: ${amount}`,
  transaction: (transactionId: string) => `Transaction: ${transactionId}`,
  paidAt: (date: string) => `Paid on: ${date}`,
  /** Where the money waits until the buyer has the piece (buyer protection). */
  protection: (hours: number) =>
    `The seller is paid once you confirm you received the piece, or ${hours} hours after the seller hands it over, unless you report a problem first.`,
  openOrders: 'See my orders',
} as const;
