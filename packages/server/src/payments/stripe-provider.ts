import Stripe from 'stripe';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CreateIntentInput,
  type CreatedIntent,
  type PaymentIntentState,
  type PaymentProvider,
  type RefundInput,
  type WebhookEvent,
} from './payment-provider.ts';

/** Stripe's own recommendation: events signed more than five minutes ago are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** The signing secret of the Connect endpoint, which delivers the events of sellers' accounts (decision 42). */
  connectWebhookSecret?: string;
}

export interface StripeProviderOptions {
  /** The SDK's pluggable HTTP client; tests pass one that records requests and answers canned JSON. */
  httpClient?: Stripe.HttpClient;
}

function toIntentState(intent: Stripe.PaymentIntent): PaymentIntentState {
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
  };
}

/** The SDK's client for the platform's account: every create carries an idempotency key, so network retries are safe. */
export function createStripeClient(secretKey: string, options: StripeProviderOptions = {}): Stripe {
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  });
}

/** Card payments through Stripe PaymentIntents; the browser confirms them with Stripe Elements. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    options: StripeProviderOptions = {},
  ) {
    this.stripe = createStripeClient(settings.secretKey, options);
  }

  async createIntent(input: CreateIntentInput): Promise<CreatedIntent> {
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency,
        allowed_payment_method_types: ['card'],
        metadata: { ...input.metadata },
        ...(input.description ? { description: input.description } : {}),
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!intent.client_secret) throw new PaymentProviderError('Stripe answered a payment intent without a client secret');
    return { id: intent.id, clientSecret: intent.client_secret };
  }

  async retrieveIntent(id: string): Promise<PaymentIntentState | undefined> {
    try {
      return toIntentState(await this.stripe.paymentIntents.retrieve(id));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return undefined;
      throw error;
    }
  }

  async refund(input: RefundInput): Promise<{ refundId: string }> {
    const refund = await this.stripe.refunds.create(
      { payment_intent: input.intentId },
      { idempotencyKey: input.idempotencyKey },
    );
    return { refundId: refund.id };
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): WebhookEvent {
    if (!signatureHeader) throw new WebhookSignatureError('The Stripe-Signature header is missing');
    const event = this.verifiedEvent(rawBody, signatureHeader);
    const object = event.data.object as { object?: string; id?: string };
    return {
      id: event.id,
      type: event.type,
      ...(object.object === 'payment_intent' ? { intent: toIntentState(object as Stripe.PaymentIntent) } : {}),
      ...(object.object === 'account' && object.id ? { accountId: object.id } : {}),
    };
  }

  /** The event, if signed with one of the two endpoints' secrets: the platform's own, or the Connect one. */
  private verifiedEvent(rawBody: Buffer, signatureHeader: string): Stripe.Event {
    const secrets = [this.settings.webhookSecret, ...(this.settings.connectWebhookSecret ? [this.settings.connectWebhookSecret] : [])];
    let refusal: Error | undefined;
    for (const secret of secrets) {
      try {
        return this.stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
        refusal = error;
      }
    }
    throw new WebhookSignatureError(refusal!.message);
  }
}
