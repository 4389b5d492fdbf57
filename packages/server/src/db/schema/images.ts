import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every stored upload. An image no product, category or user refers to is an orphan and is
 * removed by the periodic sweep once it is older than the grace period.
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Storage key of the full-size WebP; the thumbnail sits beside it. */
    key: text('key').notNull().unique(),
    url: text('url').notNull().unique(),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('images_created_idx').on(t.createdAt)],
);
