import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { simulatedPaymentMessages } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { simulatedPaymentIntents } from '../db/schema/index.ts';
import {
  PaymentProviderError,
  WebhooksNotSupportedError,
  type CreateIntentInput,
  type CreatedIntent,
  type PaymentIntentState,
  type PaymentProvider,
  type RefundInput,
  type WebhookEvent,
} from './payment-provider.ts';
import { judgeCard, type CardInput } from './simulated-cards.ts';

type IntentRow = typeof simulatedPaymentIntents.$inferSelect;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random letters and digits, shaped like Stripe's ids. */
function randomId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

function toState(row: IntentRow): PaymentIntentState {
  return { id: row.id, status: row.status, amountCents: row.amountCents, currency: row.currency, metadata: { ...row.metadata } };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function sameMetadata(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

export interface BillingDetails {
  name?: string;
  email?: string;
}

export type ConfirmResult =
  | { ok: true; intent: { id: string; status: string } }
  | { ok: false; statusCode: 400 | 402; code: string; declineCode?: string; message: string };

/**
 * The card payment provider that runs inside the product: the same PaymentIntent flow as Stripe,
 * with Stripe's test cards, and no network. Its intents are kept in PostgreSQL so every app server
 * shares them; the web app confirms them through POST /api/payments/simulated/confirm.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  readonly name = 'simulated' as const;

  constructor(
    private readonly db: Executor,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async createIntent(input: CreateIntentInput): Promise<CreatedIntent> {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
      throw new PaymentProviderError('The amount must be a positive whole number of cents');
    }
    const id = `pi_sim_${randomId(24)}`;
    const metadata = { ...input.metadata } as Record<string, string>;
    const [created] = await this.db
      .insert(simulatedPaymentIntents)
      .values({
        id,
        clientSecret: `${id}_secret_${randomId(24)}`,
        idempotencyKey: input.idempotencyKey,
        amountCents: input.amountCents,
        currency: input.currency,
        metadata,
        status: 'requires_payment_method',
      })
      .onConflictDoNothing({ target: simulatedPaymentIntents.idempotencyKey })
      .returning();
    const row =
      created ??
      (await this.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.idempotencyKey, input.idempotencyKey)))[0];
    if (!row) throw new PaymentProviderError('The payment intent could not be created');
    if (row.amountCents !== input.amountCents || row.currency !== input.currency || !sameMetadata(row.metadata, metadata)) {
      throw new PaymentProviderError(simulatedPaymentMessages.idempotencyMismatch);
    }
    return { id: row.id, clientSecret: row.clientSecret };
  }

  async retrieveIntent(id: string): Promise<PaymentIntentState | undefined> {
    const [row] = await this.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, id));
    return row && toState(row);
  }

  /** The intent a client secret belongs to, if the secret is right. */
  async intentOfClientSecret(clientSecret: string): Promise<PaymentIntentState | undefined> {
    const row = await this.findByClientSecret(clientSecret);
    return row && toState(row);
  }

  /** What Stripe.js's confirmCardPayment does: charge the card for the intent of this client secret. */
  async confirm(clientSecret: string, card: CardInput, billing: BillingDetails = {}): Promise<ConfirmResult> {
    const row = await this.findByClientSecret(clientSecret);
    if (!row) return { ok: false, statusCode: 400, code: 'resource_missing', message: simulatedPaymentMessages.unknownIntent };
    if (row.status === 'succeeded') {
      return { ok: false, statusCode: 400, code: 'payment_intent_unexpected_state', message: simulatedPaymentMessages.alreadySucceeded };
    }
    const outcome = judgeCard(card, this.clock());
    if (!outcome.ok) {
      await this.db
        .update(simulatedPaymentIntents)
        .set({ lastError: outcome.message, updatedAt: sql`now()` })
        .where(and(eq(simulatedPaymentIntents.id, row.id), ne(simulatedPaymentIntents.status, 'succeeded')));
      return { ok: false, statusCode: 402, code: outcome.code, declineCode: outcome.declineCode, message: outcome.message };
    }
    // Only one confirmation can move the intent to succeeded, however many arrive at once.
    const [confirmed] = await this.db
      .update(simulatedPaymentIntents)
      .set({
        status: 'succeeded',
        lastError: null,
        cardBrand: outcome.brand,
        cardLast4: outcome.last4,
        billingName: billing.name?.trim() || null,
        billingEmail: billing.email?.trim() || null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(simulatedPaymentIntents.id, row.id), ne(simulatedPaymentIntents.status, 'succeeded')))
      .returning();
    if (!confirmed) {
      return { ok: false, statusCode: 400, code: 'payment_intent_unexpected_state', message: simulatedPaymentMessages.alreadySucceeded };
    }
    return { ok: true, intent: { id: confirmed.id, status: confirmed.status } };
  }

  /** A full refund. An intent is refunded at most once: asking again answers the same refund. */
  async refund(input: RefundInput): Promise<{ refundId: string }> {
    const [row] = await this.db
      .update(simulatedPaymentIntents)
      .set({ refundId: sql`coalesce(${simulatedPaymentIntents.refundId}, ${`re_sim_${randomId(24)}`})`, updatedAt: sql`now()` })
      .where(and(eq(simulatedPaymentIntents.id, input.intentId), eq(simulatedPaymentIntents.status, 'succeeded')))
      .returning({ refundId: simulatedPaymentIntents.refundId });
    if (!row?.refundId) throw new PaymentProviderError(simulatedPaymentMessages.notRefundable);
    return { refundId: row.refundId };
  }

  /** The refund of an intent, if it has one. */
  async refundOf(intentId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ refundId: simulatedPaymentIntents.refundId })
      .from(simulatedPaymentIntents)
      .where(eq(simulatedPaymentIntents.id, intentId));
    return row?.refundId ?? undefined;
  }

  parseWebhook(): WebhookEvent {
    throw new WebhooksNotSupportedError('The simulated payment provider sends no webhooks');
  }

  private async findByClientSecret(clientSecret: string): Promise<IntentRow | undefined> {
    const separator = clientSecret.indexOf('_secret_');
    if (separator <= 0) return undefined;
    const [row] = await this.db
      .select()
      .from(simulatedPaymentIntents)
      .where(eq(simulatedPaymentIntents.id, clientSecret.slice(0, separator)));
    return row && sameSecret(row.clientSecret, clientSecret) ? row : undefined;
  }
}
