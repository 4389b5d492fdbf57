import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { bookings, payments, processedWebhookEvents, products } from '../db/schema/index.ts';

export type BookingRow = typeof bookings.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

export async function findBookingOfBuyer(db: Executor, bookingId: string, buyerId: string): Promise<BookingRow | undefined> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.buyerId, buyerId)));
  return row;
}

/** A buyer books a product at most once, so buyer and product name one booking. */
export async function findBookingOfBuyerForProduct(
  db: Executor,
  buyerId: string,
  productId: string,
): Promise<BookingRow | undefined> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.buyerId, buyerId), eq(bookings.productId, productId)));
  return row;
}

export async function findBookingById(db: Executor, bookingId: string): Promise<BookingRow | undefined> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  return row;
}

export async function findProductForSale(db: Executor, productId: string) {
  const [row] = await db
    .select({ id: products.id, productName: products.productName, resalePrice: products.resalePrice, state: products.state })
    .from(products)
    .where(eq(products.id, productId));
  return row;
}

export async function findPayment(db: Executor, provider: string, transactionId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.transactionId, transactionId)));
  return row;
}

export async function insertPayment(db: Executor, payment: NewPayment): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(payment).returning();
  return row!;
}

/** Records the provider's refund of a payment whose refund was pending; undefined when it was recorded already. */
export async function markPaymentRefunded(db: Executor, paymentId: string, refundId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .update(payments)
    .set({ status: 'refunded', refundId })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_pending')))
    .returning();
  return row;
}

export async function findPaymentById(db: Executor, paymentId: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row;
}

/**
 * The ids of payments whose refund has been owed for longer than `olderThanSeconds`, oldest
 * first: the refunds the periodic retry makes for this provider.
 */
export async function findRefundsDue(db: Executor, provider: string, olderThanSeconds: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        eq(payments.status, 'refund_pending'),
        lt(payments.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Locks a payment whose refund is still owed, for the rest of the transaction. Answers undefined
 * when it is refunded already or another transaction holds it (SKIP LOCKED: another app server
 * is refunding it right now).
 */
export async function lockPendingRefund(tx: Executor, paymentId: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_pending')))
    .for('update', { skipLocked: true });
  return row;
}

export async function isWebhookEventProcessed(db: Executor, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: processedWebhookEvents.id })
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.id, eventId));
  return Boolean(row);
}

export async function markWebhookEventProcessed(db: Executor, eventId: string, provider: string): Promise<void> {
  await db.insert(processedWebhookEvents).values({ id: eventId, provider }).onConflictDoNothing();
}
