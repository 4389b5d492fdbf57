import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appealStatuses, reportReasons, reportStatuses, reportTargetTypes } from '@furniture/contract';
import { bookings } from './buying.ts';
import { products } from './catalogue.ts';
import { users } from './users.ts';

export const reportTargetType = pgEnum('report_target_type', reportTargetTypes);
export const reportReason = pgEnum('report_reason', reportReasons);
export const reportStatus = pgEnum('report_status', reportStatuses);
export const appealStatus = pgEnum('appeal_status', appealStatuses);
export const reviewAuthorRole = pgEnum('review_author_role', ['buyer', 'seller']);

/**
 * People's reports of a listing or an account. The target is not a foreign key: a report outlives
 * a deleted listing or account, as the record of why it went.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetType: reportTargetType('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    reason: reportReason('reason').notNull(),
    note: text('note'),
    status: reportStatus('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    // One open report per reporter per target: a second one while the first waits adds nothing.
    uniqueIndex('reports_one_open_per_reporter')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('reports_open_target_idx').on(t.targetType, t.targetId).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * Every admin act, written in the transaction of the act itself. Append-only: a trigger refuses
 * UPDATE, DELETE and TRUNCATE (migration audit_log). Actor and target are copied, not referenced,
 * so that deleting an account neither changes nor loses its entries.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    actorId: uuid('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** How a person recognises the target (an e-mail, a listing's name), kept after it is gone. */
    targetLabel: text('target_label'),
    reason: text('reason'),
    /** The request's address, as the app believes it (TRUST_PROXY). */
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
    // A target's history in the moderation queue.
    index('audit_log_target_idx').on(t.targetId, t.id),
  ],
);

/**
 * A seller's appeal of a hidden listing: one per hiding (the listing's `moderated_at` when it was
 * sent), answered by an admin with the listing restored (granted) or kept hidden (refused, final).
 */
export const listingAppeals = pgTable(
  'listing_appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The hiding appealed: the listing's `moderated_at` then. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }).notNull(),
    text: text('text').notNull(),
    status: appealStatus('status').notNull().default('pending'),
    /** The admin's reason, once answered. */
    answer: text('answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('listing_appeals_one_per_hiding').on(t.productId, t.hiddenAt),
    index('listing_appeals_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * After a closed sale, its buyer rates the seller and its seller rates the buyer: one review each
 * per booking. Changeable for REVIEW_EDIT_DAYS, then final (decision 23).
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorRole: reviewAuthorRole('author_role').notNull(),
    rating: integer('rating').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('reviews_one_per_author_and_booking').on(t.bookingId, t.authorId),
    index('reviews_subject_created_idx').on(t.subjectId, t.createdAt),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);
