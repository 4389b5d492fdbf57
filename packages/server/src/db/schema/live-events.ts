import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Events for people (a new message, an answered offer), one row per addressee, kept for a while so
 * that a client that was away is given what it missed. For each addressee, ids grow in the order
 * the events committed (decision 17): a client resumes after the last id it saw.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_user_id_idx').on(t.userId, t.id), index('live_events_created_idx').on(t.createdAt)],
);

/**
 * One-time tickets that open the live event stream from a browser's EventSource, which cannot send
 * an Authorization header. Stored as SHA-256 hashes; a ticket is deleted when used.
 */
export const liveEventTickets = pgTable(
  'live_event_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('live_event_tickets_expires_idx').on(t.expiresAt)],
);
