/**
 * What a card payment says when a card is refused, in the words of Stripe's card element: the
 * simulated provider judges cards with them, and the payment form catches an incomplete card with
 * the same words before anything is sent.
 */
export const cardMessages = {
  incompleteNumber: 'Your card number is incomplete.',
  invalidNumber: 'Your card number is invalid.',
  incompleteExpiry: "Your card's expiration date is incomplete.",
  invalidExpiryMonth: "Your card's expiration month is invalid.",
  invalidExpiryYear: "Your card's expiration year is invalid.",
  expiryInPast: "Your card's expiration date is in the past.",
  incompleteCvc: "Your card's security code is incomplete.",
  invalidCvc: "Your card's security code is invalid.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
  notATestCard: 'Your card was declined. Only test cards are accepted here, such as 4242 4242 4242 4242.',
} as const;

/** What the simulated card provider answers about a payment itself, in the words Stripe uses. */
export const simulatedPaymentMessages = {
  unknownIntent: 'This payment could not be found. Reload the page and try again.',
  alreadySucceeded: 'This payment has already succeeded.',
  idempotencyMismatch:
    'Keys for idempotent requests can only be used with the same parameters they were first used with.',
  notRefundable: 'Only a payment that succeeded can be refunded.',
} as const;
