import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DELETED_ACCOUNT_NAME } from '@furniture/contract';
import type { Database, Executor } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { paymentMetadataOf, type PaymentIntentState, type PaymentProvider } from './payment-provider.ts';
import {
  findBookingById,
  findPayment,
  findPaymentById,
  findProductForSale,
  insertPayment,
  markPaymentRefunded,
  type PaymentRow,
} from './payment-repository.ts';
import { sellToBooking } from '../sales/sale-transitions.ts';
import { tellBuyerOfPayment, tellBuyerOfRefund } from './payment-notices.ts';

/** Why a captured payment went back to the buyer. */
export type RefundReason = 'product-sold' | 'already-paid' | 'booking-gone' | 'product-gone' | 'booking-closed' | 'price-changed';

export type FulfilmentResult =
  /** The product is sold to this payment's buyer. `firstTime` is false when it was already recorded. */
  | { outcome: 'sold'; payment: PaymentRow; firstTime: boolean }
  /** The product could not be sold to this buyer and the money went back. */
  | { outcome: 'refunded'; payment: PaymentRow; reason: RefundReason }
  /**
   * As refunded, but the provider has not confirmed the refund yet: the periodic retry
   * (`retryPendingRefunds`) makes it, and so does fulfilling the payment again.
   */
  | { outcome: 'refund-pending'; payment: PaymentRow; reason: RefundReason };

export class NotFulfillableError extends Error {}

export interface FulfilmentDependencies {
  db: Database;
  payments: PaymentProvider;
  log?: FastifyBaseLogger;
}

/** The idempotency key of the one refund a payment can have. */
export const refundKeyOf = (provider: string, transactionId: string) => `refund:${provider}:${transactionId}`;

async function buyerOf(db: Executor, buyerId: string) {
  const [row] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, buyerId));
  return row;
}

/** Why a payment that did not make the sale was refunded, read from where things stand. */
async function refundReasonOf(db: Executor, payment: PaymentRow): Promise<RefundReason> {
  const booking = payment.bookingId ? await findBookingById(db, payment.bookingId) : undefined;
  if (!booking) return 'booking-gone';
  if (!booking.productId) return 'product-gone';
  if (booking.paymentStatus === 'paid') return 'already-paid';
  const product = await findProductForSale(db, booking.productId);
  const closed = booking.status === 'declined' || booking.status === 'cancelled';
  if (closed && product?.state !== 'sold') return 'booking-closed';
  return !closed && product?.state !== 'sold' && payment.amountCents !== booking.agreedPriceCents ? 'price-changed' : 'product-sold';
}

/**
 * Refunds a payment owed back through the provider and records the refund id. The idempotency
 * key is the payment's own and the request carries nothing else that could change between
 * attempts (a provider refuses a reused key with other parameters), so every attempt, from a
 * repeated arrival or from the periodic retry, is the same one refund at the provider. The attempt
 * that records the refund tells the buyer. Throws when the provider fails; the payment then stays
 * refund_pending.
 */
export async function refundPayment(deps: { db: Executor; payments: PaymentProvider }, payment: PaymentRow): Promise<PaymentRow> {
  const { refundId } = await deps.payments.refund({
    intentId: payment.transactionId,
    idempotencyKey: refundKeyOf(payment.provider, payment.transactionId),
  });
  const refunded = await markPaymentRefunded(deps.db, payment.id, refundId);
  if (!refunded) return (await findPaymentById(deps.db, payment.id)) ?? payment;
  await tellBuyerOfRefund(deps.db, refunded);
  return refunded;
}

/**
 * Turns a succeeded payment into a sale, the same way whether it arrives from the buyer's
 * POST /payment or from the provider's webhook, and as often as it arrives.
 *
 * One transaction, serialised per payment by an advisory lock: if the payment is already recorded
 * its record is the answer; otherwise the sale is made under the product's row lock if the booking
 * may still be paid (`sellToBooking`, decision 20: only one payment can win a product), and the
 * payment is stored with its transaction id. A payment that loses the product is stored as owed back and refunded
 * through the provider once the transaction has committed, so this transaction never waits on a
 * network call.
 */
export async function fulfilPayment(deps: FulfilmentDependencies, intent: PaymentIntentState): Promise<FulfilmentResult> {
  if (intent.status !== 'succeeded') throw new NotFulfillableError(`Payment ${intent.id} has not succeeded`);
  const metadata = paymentMetadataOf(intent.metadata);
  if (!metadata) throw new NotFulfillableError(`Payment ${intent.id} was not made for a booking`);
  const provider = deps.payments.name;

  const { payment, firstTime } = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payment:${provider}:${intent.id}`}, 0))`);
    const existing = await findPayment(tx, provider, intent.id);
    if (existing) return { payment: existing, firstTime: false };

    const booking = await findBookingById(tx, metadata.bookingId);
    const product = await findProductForSale(tx, metadata.productId);
    const buyer = await buyerOf(tx, metadata.buyerId);
    const record = {
      provider,
      transactionId: intent.id,
      bookingId: booking?.id ?? null,
      productId: product?.id ?? null,
      buyerId: buyer?.id ?? null,
      buyerName: buyer?.name ?? DELETED_ACCOUNT_NAME,
      buyerEmail: buyer?.email ?? '',
      productName: booking?.productName ?? product?.productName ?? 'Removed product',
      amountCents: intent.amountCents,
      currency: intent.currency,
    };
    const bookingMatches = booking && booking.buyerId === metadata.buyerId && booking.productId === metadata.productId;
    if (bookingMatches && (await sellToBooking(tx, booking.id, intent.amountCents))) {
      const sold = await insertPayment(tx, { ...record, status: 'succeeded' });
      await tellBuyerOfPayment(tx, sold);
      return { payment: sold, firstTime: true };
    }
    return { payment: await insertPayment(tx, { ...record, status: 'refund_pending' }), firstTime: true };
  });

  if (payment.status === 'succeeded') return { outcome: 'sold', payment, firstTime };
  const reason = await refundReasonOf(deps.db, payment);
  if (payment.status === 'refunded') return { outcome: 'refunded', payment, reason };

  try {
    return { outcome: 'refunded', payment: await refundPayment(deps, payment), reason };
  } catch (error) {
    deps.log?.error(
      { err: error, transactionId: intent.id },
      'refund of a payment that lost its product failed; the periodic refund retry and the next delivery retry it',
    );
    return { outcome: 'refund-pending', payment, reason };
  }
}
