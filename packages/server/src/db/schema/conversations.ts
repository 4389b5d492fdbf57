import { sql } from 'drizzle-orm';
import { index, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { offerStatuses } from '@furniture/contract';
import { products } from './catalogue.ts';
import { users } from './users.ts';

export const offerStatus = pgEnum('offer_status', offerStatuses);

/** One thread per product and buyer, between that buyer and the product's seller (decision 22). */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The latest message or offer, for "newest activity first". */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /** Each participant has read what came before this moment (read receipts, unread counts). */
    buyerReadAt: timestamp('buyer_read_at', { withTimezone: true }),
    sellerReadAt: timestamp('seller_read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_product_buyer_key').on(t.productId, t.buyerId),
    index('conversations_buyer_activity_idx').on(t.buyerId, t.lastActivityAt),
    index('conversations_seller_activity_idx').on(t.sellerId, t.lastActivityAt),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the sender wrote, kept after a removal as the record an admin judged (decision 23). */
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when an admin removed the message: both participants then read the removal notice instead. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  // Keyset pages of a thread, newest first.
  (t) => [index('chat_messages_conversation_created_idx').on(t.conversationId, t.createdAt, t.id)],
);

/**
 * A price proposed in a conversation, by the buyer or (as a counter-offer) by the seller. At most
 * one is open per conversation, that is per buyer and product (the partial unique index).
 */
export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    /** A buyer's offer: their phone and meeting place for the booking it makes if accepted. */
    phoneNumber: text('phone_number'),
    meetingPlace: text('meeting_place'),
    status: offerStatus('status').notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('offers_one_open_per_conversation_key').on(t.conversationId).where(sql`${t.status} = 'open'`),
    index('offers_conversation_created_idx').on(t.conversationId, t.createdAt),
  ],
);
