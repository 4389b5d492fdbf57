import { sql } from 'drizzle-orm';
import { boolean, index, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { conditions, stockStates } from '@furniture/contract';
import { users } from './users.ts';

export const productCondition = pgEnum('product_condition', conditions);
export const stockState = pgEnum('stock_state', stockStates);

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    categoryName: text('category_name').notNull(),
    description: text('description').notNull(),
    image: text('image').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('categories_name_key').on(sql`lower(${t.categoryName})`)],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    condition: productCondition('condition').notNull(),
    productName: text('product_name').notNull(),
    yearsOfUsedProduct: text('years_of_used_product').notNull(),
    /** Money is exact: numeric, never floating point. */
    originalPrice: numeric('original_price', { precision: 12, scale: 2 }).notNull(),
    resalePrice: numeric('resale_price', { precision: 12, scale: 2 }).notNull(),
    description: text('description').notNull(),
    phone: text('phone').notNull(),
    location: text('location').notNull(),
    productImage: text('product_image').notNull(),
    advertisement: boolean('advertisement').notNull().default(false),
    inStock: stockState('in_stock').notNull().default('available'),
    reported: boolean('reported').notNull().default(false),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A category page lists what can be bought first, then what was sold, newest first within each.
    index('products_category_stock_posted_idx').on(t.categoryId, t.inStock, t.postedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('products_seller_posted_idx').on(t.sellerId, t.postedAt),
    index('products_advertised_idx').on(t.postedAt).where(sql`${t.advertisement} and ${t.inStock} = 'available'`),
  ],
);
