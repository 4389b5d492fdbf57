import { boolean, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { notificationKinds } from '@furniture/contract';
import { users } from './users.ts';

export const notificationKind = pgEnum('notification_kind', notificationKinds);

/** What happened that concerns a person (decision 22), newest first in their list. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: notificationKind('kind').notNull(),
    text: text('text').notNull(),
    link: text('link').notNull(),
    /** The product's photo, for the e-mail. */
    image: text('image'),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * When it was handed to e-mail: claimed by its own e-mail job as that job read it, or sent in a
     * digest; null while it has not been (the digest lists only these).
     */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/** A person's e-mail preferences; without a row, every notification is e-mailed at once. */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: boolean('email').notNull().default(true),
  digest: boolean('digest').notNull().default(false),
});
