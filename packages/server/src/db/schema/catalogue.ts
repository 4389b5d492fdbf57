import { sql } from 'drizzle-orm';
import { boolean, check, customType, doublePrecision, index, integer, jsonb, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { conditions, LISTING_LIFETIME_DAYS, listingStates, moderationStates, stockStates, type PriceChange } from '@furniture/contract';
import { places } from './places.ts';
import { users } from './users.ts';

export const productCondition = pgEnum('product_condition', conditions);
export const stockState = pgEnum('stock_state', stockStates);
export const listingState = pgEnum('listing_state', listingStates);
export const moderationState = pgEnum('moderation_state', moderationStates);

/** A full-text search document; the search migration's trigger keeps it current. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Centimetres with one decimal, as the seller states them. */
const centimetres = (name: string) => numeric(name, { precision: 6, scale: 1, mode: 'number' });

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
    /** The place the location was picked from or resolved to; none when nothing matched (decision 41). */
    placeId: integer('place_id').references(() => places.id, { onDelete: 'set null' }),
    /** The place's coordinates rounded to two decimals (about 1 km), so the seller's door is never exact. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    productImage: text('product_image').notNull(),
    advertisement: boolean('advertisement').notNull().default(false),
    /** The specification's field: 'available' exactly when state is (checked below). */
    inStock: stockState('in_stock').notNull().default('available'),
    /** Where the listing is in its life (decision 20); changed only by src/sales/sale-transitions.ts. */
    state: listingState('state').notNull().default('available'),
    /** Asking prices, oldest first: the listed price, then each change. */
    priceHistory: jsonb('price_history').$type<PriceChange[]>().notNull().default(sql`'[]'::jsonb`),
    /** 60 days after posting, the last edit or renewal; a job expires the listing then. */
    expiresAt: timestamp('expires_at', { withTimezone: true })
      .notNull()
      .default(sql.raw(`now() + interval '${LISTING_LIFETIME_DAYS} days'`)),
    renewedAt: timestamp('renewed_at', { withTimezone: true }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /** True while someone's report of the listing waits for an admin. */
    reported: boolean('reported').notNull().default(false),
    /** An admin took the listing out of every public list (beside its sale state, which it keeps). */
    moderation: moderationState('moderation'),
    moderationReason: text('moderation_reason'),
    /** When the current moderation began: an appeal belongs to one hiding (decision 23). */
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    /** Hidden because its seller was suspended, not for itself: lifting the suspension brings it back. */
    hiddenBySuspension: boolean('hidden_by_suspension').notNull().default(false),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull().defaultNow(),
    /** Every photo's URL, the cover (productImage) first. */
    photos: text('photos').array().notNull().default(sql`'{}'::text[]`),
    /** Outer measurements: all three or none (checked below). */
    widthCm: centimetres('width_cm'),
    depthCm: centimetres('depth_cm'),
    heightCm: centimetres('height_cm'),
    /**
     * The measurements in the shapes the "will it fit?" filters compare (see decision 12): the
     * footprint's short and long sides, and the piece's smallest and middle dimensions, whose
     * face is the one to carry through a doorway.
     */
    footprintMinCm: numeric('footprint_min_cm', { mode: 'number' }).generatedAlwaysAs(sql`least(width_cm, depth_cm)`),
    footprintMaxCm: numeric('footprint_max_cm', { mode: 'number' }).generatedAlwaysAs(sql`greatest(width_cm, depth_cm)`),
    dimMinCm: numeric('dim_min_cm', { mode: 'number' }).generatedAlwaysAs(sql`least(width_cm, depth_cm, height_cm)`),
    dimMidCm: numeric('dim_mid_cm', { mode: 'number' }).generatedAlwaysAs(
      sql`width_cm + depth_cm + height_cm - least(width_cm, depth_cm, height_cm) - greatest(width_cm, depth_cm, height_cm)`,
    ),
    /** Years of use as a number, read from the free text ("2 years", "6 months"); null when it names none. */
    yearsUsed: numeric('years_used', { mode: 'number' }).generatedAlwaysAs(
      sql`case when years_of_used_product ~* 'month' then substring(years_of_used_product from '([0-9]+([.][0-9]+)?)')::numeric / 12 else substring(years_of_used_product from '([0-9]+([.][0-9]+)?)')::numeric end`,
    ),
    /** When the product was sold; set by a trigger when in_stock becomes 'sold'. */
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** Name (A), category and location (B) and description (C), unaccented and stemmed. */
    searchVector: tsvector('search_vector'),
  },
  (t) => [
    check(
      'products_measurements_all_or_none',
      sql`(${t.widthCm} is null) = (${t.depthCm} is null) and (${t.depthCm} is null) = (${t.heightCm} is null)`,
    ),
    check('products_point_both_or_none', sql`(${t.lat} is null) = (${t.lon} is null)`),
    check('products_in_stock_follows_state', sql`(${t.inStock} = 'available') = (${t.state} = 'available')`),
    check('products_measurements_positive', sql`${t.widthCm} > 0 and ${t.depthCm} > 0 and ${t.heightCm} > 0`),
    // Keyset orders of search: newest, and price either way, overall and within a category.
    index('products_posted_id_idx').on(t.postedAt, t.id),
    index('products_price_id_idx').on(t.resalePrice, t.id),
    index('products_category_price_id_idx').on(t.categoryId, t.resalePrice, t.id),
    // "Will it fit?": the doorway's short side bounds the smallest dimension; the space bounds the footprint.
    index('products_dim_min_idx').on(t.dimMinCm).where(sql`${t.dimMinCm} is not null`),
    index('products_footprint_idx').on(t.footprintMaxCm, t.footprintMinCm).where(sql`${t.footprintMaxCm} is not null`),
    // Comparable sales of the price guide: a category's sales, latest first.
    index('products_category_sold_idx').on(t.categoryId, t.soldAt.desc()).where(sql`${t.soldAt} is not null`),
    // A category page lists what can be bought first, then what was sold, newest first within each.
    index('products_category_stock_posted_idx').on(t.categoryId, t.inStock, t.postedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('products_seller_posted_idx').on(t.sellerId, t.postedAt),
    // The first relevance tier, listings named by every word (decision 27): the name's own words,
    // which search_vector holds with weight A, without reading the rest of the document.
    index('products_name_search_idx').using('gin', sql`to_tsvector('furniture_search'::regconfig, ${t.productName})`),
    // The place filter: listings of the known places a location search resolves to (decision 27),
    // newest first within a place, which a location search without words reads in order (migration 0025).
    index('products_place_posted_idx').on(sql`furniture_fold(${t.location})`, t.postedAt, t.id),
    // Search by distance and a map's area: the listings within a range of latitudes and longitudes (decision 53).
    index('products_point_idx').on(t.lat, t.lon).where(sql`${t.lat} is not null`),
    // A place's listings in id order: a page nearest first reads them place by place (decision 53).
    index('products_place_id_idx').on(t.placeId, t.id).where(sql`${t.placeId} is not null`),
    index('products_advertised_idx').on(t.postedAt).where(sql`${t.advertisement} and ${t.inStock} = 'available'`),
  ],
);

/**
 * How often each product page was opened (GET /api/products/{id}), for its seller. A table of its
 * own: views are counted all the time, and a change to products empties the cached answers that
 * read products (decision 21).
 */
export const productViews = pgTable('product_views', {
  productId: uuid('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  views: integer('views').notNull(),
});

/**
 * Every word stem the catalogue contains, so a misspelt search word can be matched to the stems
 * it resembles (trigram similarity over this small table, not over every product).
 */
export const searchTerms = pgTable('search_terms', {
  term: text('term').primaryKey(),
});

/**
 * Every place (a product's location, unaccented and in lower case) the catalogue contains, so a
 * location search is resolved to the places it loosely matches over this small table, and the
 * products of those places are read from a B-tree (decision 27).
 */
export const searchPlaces = pgTable('search_places', {
  place: text('place').primaryKey(),
});

/**
 * How many publicly visible listings hold each stem, by category, condition and stock state, maintained
 * by a trigger on products (migration 0017): the facet counts of a one-word search without other
 * filters, exact at any size without reading the listings (decision 27). `named`: how many of them
 * hold it in their name (migration 0026), so that the others hold it only elsewhere.
 */
export const searchWordCounts = pgTable(
  'search_word_counts',
  {
    term: text('term').notNull(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    condition: productCondition('condition').notNull(),
    inStock: stockState('in_stock').notNull(),
    listings: integer('listings').notNull(),
    named: integer('named').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.term, t.categoryId, t.condition, t.inStock] })],
);

/**
 * How many publicly visible listings each place holds (`furniture_fold(location)`, as
 * `search_places`), by category, condition and stock state, maintained by the same trigger as the word
 * counts (migration 0022): the facet counts of a search by place alone, exact at any size without
 * reading the listings (decision 27).
 */
export const searchPlaceCounts = pgTable(
  'search_place_counts',
  {
    place: text('place').notNull(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    condition: productCondition('condition').notNull(),
    inStock: stockState('in_stock').notNull(),
    listings: integer('listings').notNull(),
  },
  (t) => [primaryKey({ columns: [t.place, t.categoryId, t.condition, t.inStock] })],
);

/**
 * Every listing under each stem of its name, newest first: the listings named by several words are
 * found by reading one word's listings in order and looking up the others, at a cost set by how often the
 * words go together rather than by the catalogue's size (decision 27). Maintained by statement-level
 * triggers on products (migrations 0019 and 0021).
 */
export const searchNameWords = pgTable(
  'search_name_words',
  {
    term: text('term').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    productId: uuid('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.postedAt, t.productId] })],
);

/**
 * Every listing under each stem of its whole search document (name, category, place and
 * description: `search_vector`), newest first: a search's matches newest first are found by
 * reading its rarest word's listings in order and looking up the others, at a cost set by how often the
 * words go together rather than by how many listings there are (decision 31). Maintained by
 * statement-level triggers on products (migration 0021).
 */
export const searchDocumentWords = pgTable(
  'search_document_words',
  {
    term: text('term').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    productId: uuid('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.postedAt, t.productId] })],
);

/** How many listings each stem of the names names, maintained with the list above (migration 0019). */
export const searchNameWordCounts = pgTable('search_name_word_counts', {
  term: text('term').primaryKey(),
  listings: integer('listings').notNull(),
});
