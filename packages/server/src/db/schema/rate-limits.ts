import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The counters of every rate limit (http/rate-limit.ts), shared by every app server. A key is the
 * limit's prefix and its subject, e.g. `account:<e-mail>` or `image-uploads:<user id>`. The table
 * and the count column keep the names they had when they only counted failed sign-ins, so the
 * counters of running servers carry over without a migration.
 */
export const rateLimitCounters = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  count: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
});
