import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bookingStatuses, paymentStatuses } from '@furniture/contract';
import { products } from './catalogue.ts';
import { users } from './users.ts';

export const paymentStatus = pgEnum('payment_status', paymentStatuses);
export const bookingStatus = pgEnum('booking_status', bookingStatuses);

export const wishes = pgTable(
  'wishes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wishes_buyer_product_key').on(t.buyerId, t.productId),
    index('wishes_buyer_created_idx').on(t.buyerId, t.createdAt),
    index('wishes_product_idx').on(t.productId),
  ],
);

/**
 * A booking keeps what the buyer agreed to (name, image and price of the product at booking
 * time), so a paid booking still reads correctly after its product is gone.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    /** The agreed price (decision 32): the listing's price at booking time, or the accepted offer's amount. */
    productPrice: numeric('product_price', { precision: 12, scale: 2 }).notNull(),
    /** The platform's fee on this sale, fixed when the booking is made (decision 33). */
    feeCents: integer('fee_cents').notNull().default(0),
    /** The same price in cents, the one amount a payment of this booking may have. */
    agreedPriceCents: integer('agreed_price_cents')
      .notNull()
      .generatedAlwaysAs(sql`(product_price * 100)::integer`),
    phoneNumber: text('phone_number').notNull(),
    location: text('location').notNull(),
    paymentStatus: paymentStatus('payment_status').notNull().default('unpaid'),
    /** Where the booking is (decision 20); changed only by src/sales/sale-transitions.ts. */
    status: bookingStatus('status').notNull().default('open'),
    /** Why it was declined or cancelled, in words for the buyer. */
    statusReason: text('status_reason'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The seller's incoming bookings, newest first, are read per product.
    index('bookings_product_created_idx').on(t.productId, t.createdAt),
    uniqueIndex('bookings_buyer_product_key').on(t.buyerId, t.productId),
    index('bookings_buyer_created_idx').on(t.buyerId, t.createdAt),
  ],
);

/**
 * Money that moved. Rows are never deleted: references to the booking, product and buyer are
 * cleared when those go, and the names and amounts stay as they were.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    /** The provider's id for the charge (a PaymentIntent id for Stripe). */
    transactionId: text('transaction_id').notNull(),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    buyerName: text('buyer_name').notNull(),
    buyerEmail: text('buyer_email').notNull(),
    productName: text('product_name').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /**
     * 'succeeded' for the sale; 'refunded' when the product was already sold to someone else, and
     * 'refund_pending' between recording that refund and the provider confirming it.
     */
    status: text('status').notNull(),
    refundId: text('refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_transaction_key').on(t.provider, t.transactionId),
    index('payments_product_idx').on(t.productId),
    index('payments_buyer_idx').on(t.buyerId),
  ],
);

/** Webhook events already handled, so a redelivered event is fulfilled once. */
export const processedWebhookEvents = pgTable('processed_webhook_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Payment intents of the simulated card provider. They live in the database so that every app
 * server sees the same intents, as every server would see Stripe's.
 */
export const simulatedPaymentIntents = pgTable('simulated_payment_intents', {
  /** pi_sim_…, shaped like a Stripe PaymentIntent id. */
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull().unique(),
  /** A repeated create with the same key answers the same intent. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  /** 'requires_payment_method' until a card succeeds, then 'succeeded'. */
  status: text('status').notNull(),
  lastError: text('last_error'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  billingName: text('billing_name'),
  billingEmail: text('billing_email'),
  refundId: text('refund_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
