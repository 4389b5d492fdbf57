import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { fundsStates, ledgerAccountKinds, ledgerTransactionKinds, payoutStatuses, problemReasons } from '@furniture/contract';
import { bookings } from './buying.ts';
import { users } from './users.ts';

export const ledgerAccountKind = pgEnum('ledger_account_kind', ledgerAccountKinds);
export const ledgerTransactionKind = pgEnum('ledger_transaction_kind', ledgerTransactionKinds);
export const fundsState = pgEnum('funds_state', fundsStates);
export const problemReason = pgEnum('problem_reason', problemReasons);
export const payoutStatus = pgEnum('payout_status', payoutStatuses);

/**
 * The double-entry ledger (decision 33). Money is never a column that is updated: a balance is the
 * sum of an account's entries, and every movement is one transaction whose entries sum to zero
 * (checked by the database when the transaction commits). The three tables are append-only: the
 * database refuses UPDATE, DELETE and TRUNCATE, as for the audit log. Seller ids are not foreign
 * keys: the books outlive a deleted account.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: ledgerAccountKind('kind').notNull(),
    /** The seller whose money it is; null for the platform's own accounts. */
    sellerId: uuid('seller_id'),
  },
  (t) => [unique('ledger_accounts_kind_seller_key').on(t.kind, t.sellerId).nullsNotDistinct()],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: ledgerTransactionKind('kind').notNull(),
    bookingId: uuid('booking_id'),
    payoutId: uuid('payout_id'),
    /** The piece sold, as named when the money moved. */
    productName: text('product_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_transactions_booking_idx').on(t.bookingId)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Integer cents; money into the account is positive. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_amount_not_zero', sql`${t.amountCents} <> 0`),
  ],
);

/**
 * Buyer protection of a paid sale (decision 33): its money is held until the buyer confirms, or
 * until `releaseAt` after the handover, unless the buyer reports a problem first.
 */
export const saleFunds = pgTable(
  'sale_funds',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    state: fundsState('state').notNull().default('held'),
    releaseAt: timestamp('release_at', { withTimezone: true }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sale_funds_seller_state_idx').on(t.sellerId, t.state)],
);

/** A buyer's "Something is wrong" on a paid sale, until an admin releases or refunds it. */
export const saleProblems = pgTable(
  'sale_problems',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    reason: problemReason('reason').notNull(),
    note: text('note').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** 'released' or 'refunded'. */
    resolution: text('resolution'),
  },
  (t) => [
    uniqueIndex('sale_problems_one_open_key').on(t.bookingId).where(sql`${t.resolvedAt} is null`),
    index('sale_problems_open_idx').on(t.openedAt).where(sql`${t.resolvedAt} is null`),
  ],
);

/**
 * A payout of a seller's available money (decision 34). The row is written, and the money taken
 * from the balance, before the payout provider is asked; the row's id is the provider's
 * idempotency key, so asking again after a crash pays once.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Not a foreign key: a payout is kept after its seller's account is gone. */
    sellerId: uuid('seller_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    provider: text('provider').notNull(),
    status: payoutStatus('status').notNull().default('pending'),
    /** The provider's id of the payout (a transfer id for Stripe). */
    reference: text('reference'),
    failure: text('failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    index('payouts_seller_created_idx').on(t.sellerId, t.createdAt),
    index('payouts_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check('payouts_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** Payouts of the simulated payout provider, kept in the database so every app server sees them. */
export const simulatedPayouts = pgTable('simulated_payouts', {
  /** po_sim_…, shaped like a Stripe transfer id. */
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  destination: text('destination').notNull(),
  amountCents: integer('amount_cents').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A seller's Stripe Connect Express account, where their payouts go when Stripe is configured
 * (decision 42), and what Stripe last said of it: both flags must be on before money is sent.
 */
export const payoutAccounts = pgTable('payout_accounts', {
  sellerId: uuid('seller_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeAccountId: text('stripe_account_id').notNull().unique(),
  /** Stripe pays the account's balance out to the seller's bank. */
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  /** The platform may transfer money to the account (its `transfers` capability is active). */
  transfersActive: boolean('transfers_active').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
