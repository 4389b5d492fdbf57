/**
 * What the marketplace needs from a card payment provider. Two implementations: Stripe, and a
 * simulated provider that runs the same flow inside the product without any network.
 */

export type PaymentProviderName = 'stripe' | 'simulated';

/** Keys the server puts in every intent's metadata, and reads back on fulfilment. */
export interface PaymentMetadata {
  bookingId: string;
  productId: string;
  buyerId: string;
}

export interface CreateIntentInput {
  /** In the currency's smallest unit (cents). */
  amountCents: number;
  /** Lower-case ISO 4217 code. */
  currency: string;
  metadata: PaymentMetadata;
  /** A repeated create with the same key answers the same intent instead of a new one. */
  idempotencyKey: string;
  description?: string;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

/** A payment intent as the provider reports it now. `status` is the provider's own word ('succeeded', …). */
export interface PaymentIntentState {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface RefundInput {
  intentId: string;
  /** A repeated refund with the same key answers the same refund instead of a second one. */
  idempotencyKey: string;
}

/** A verified webhook event. `intent` is set for payment-intent events, `accountId` for events of a connected account. */
export interface WebhookEvent {
  id: string;
  type: string;
  intent?: PaymentIntentState;
  accountId?: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createIntent(input: CreateIntentInput): Promise<CreatedIntent>;
  /** The intent's current state, or undefined when the provider has no such intent. */
  retrieveIntent(id: string): Promise<PaymentIntentState | undefined>;
  refund(input: RefundInput): Promise<{ refundId: string }>;
  /**
   * Verifies a webhook's signature over the raw body and parses it. Throws WebhookSignatureError
   * for a body that does not verify; throws WebhooksNotSupportedError for providers without webhooks.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): WebhookEvent;
}

export class WebhookSignatureError extends Error {}
export class WebhooksNotSupportedError extends Error {}

/** The provider refused a request (an unknown intent, a reused idempotency key with other values…). */
export class PaymentProviderError extends Error {}

/** Reads the three ids the server put in an intent's metadata; undefined when any is missing. */
export function paymentMetadataOf(metadata: Record<string, string>): PaymentMetadata | undefined {
  const { bookingId, productId, buyerId } = metadata;
  if (!bookingId || !productId || !buyerId) return undefined;
  return { bookingId, productId, buyerId };
}
