import { and, asc, Column, desc, eq, getTableName, inArray, is, sql, type DriverValueDecoder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Condition, Measurements, Product, SellerProduct } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { executePrepared } from '../db/prepared.ts';
import { bookings, categories, payments, products, productViews, reviews, users, wishes } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';
import { latestAppealsOf, toAppeal } from './appeal-repository.ts';

/**
 * How people rate a seller: the average of the reviews about them (one decimal) and how many there
 * are, read by the query that reads the product (no query per card). Answers that carry it must
 * watch `reviews` in the response cache, so a new or changed review shows on the next read.
 */
export const sellerRatingOf = (sellerId: typeof products.sellerId | typeof users.id) => {
  // Named with its table: a query of one table would render the bare column, which the subquery would read as its own.
  const outer = sql`${sql.identifier(getTableName(sellerId.table))}.${sql.identifier(sellerId.name)}`;
  return sql<{ average: number | null; count: number }>`(select json_build_object('average', round(avg(${reviews.rating}), 1), 'count', count(*))
    from ${reviews} where ${reviews.subjectId} = ${outer})`;
};

/** The rating as answers carry it: null before the first review. */
export const toSellerRating = (rating: { average: number | null; count: number }) =>
  rating.average === null ? null : { average: Number(rating.average), count: rating.count };

/**
 * A product as listed: its own columns, its category's name, its seller's name, e-mail and
 * verified flag read from the seller's account, so verifying a seller shows on every product, and
 * the seller's rating.
 */
export const productColumns = {
  id: products.id,
  categoryId: products.categoryId,
  categoryName: categories.categoryName,
  sellerId: products.sellerId,
  sellerName: users.name,
  sellerEmail: users.email,
  sellerVerified: users.verified,
  condition: products.condition,
  productName: products.productName,
  yearsOfUsedProduct: products.yearsOfUsedProduct,
  originalPrice: products.originalPrice,
  resalePrice: products.resalePrice,
  description: products.description,
  phone: products.phone,
  location: products.location,
  lat: products.lat,
  lon: products.lon,
  productImage: products.productImage,
  // As JSON: the driver parses a text array character by character in JavaScript, JSON natively
  // (a noticeable share of the CPU a page of results costs).
  photos: sql<string[]>`to_json(${products.photos})`.mapWith(products.photos),
  widthCm: products.widthCm,
  depthCm: products.depthCm,
  heightCm: products.heightCm,
  advertisement: products.advertisement,
  inStock: products.inStock,
  state: products.state,
  priceHistory: products.priceHistory,
  reported: products.reported,
  postedAt: products.postedAt,
  sellerRating: sellerRatingOf(products.sellerId),
};

/**
 * `productColumns` as a select list, each column named by its key, rendered once: a search's page
 * statements select them all, and building the list from the column objects and mapping each row
 * back through them on every statement cost more of a search's CPU than any other step of the app
 * (decision 27). `productRecordOf` decodes a row of it as Drizzle would.
 */
export const productSelectList: SQL = (() => {
  const { sql: text, params } = new PgDialect().sqlToQuery(
    sql.join(Object.entries(productColumns).map(([key, field]) => sql`${field} as ${sql.identifier(key)}`), sql`, `),
  );
  if (params.length > 0) throw new Error('productColumns must render without parameters');
  return sql.raw(text);
})();

const productDecoders = Object.entries(productColumns).map(
  // A column decodes its own values; an SQL field with the decoder `mapWith` gave it (Drizzle's own, not in its types).
  ([key, field]): [string, DriverValueDecoder<unknown, unknown>] => [key, is(field, Column) ? field : (field as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder],
);

/** A row selected with productSelectList, as Drizzle's select of productColumns answers it. */
export function productRecordOf(row: Record<string, unknown>): ProductRecord {
  const record: Record<string, unknown> = {};
  for (const [key, decoder] of productDecoders) {
    const value = row[key];
    record[key] = value === null ? null : decoder.mapFromDriverValue(value);
  }
  return record as ProductRecord;
}

/**
 * What anyone may see: the one condition every public list (search, advertisement, category
 * pages, similar products, the sitemap) and the public product page apply. Withdrawn and expired
 * listings are left out here and nowhere else; their sellers still see them (decision 20). So are
 * listings an admin hid or removed, and those of suspended sellers (decision 23). The word and
 * place counts of facets (the trigger and recounts of migrations 0017 and 0022) count the same
 * listings: a change here changes them too.
 */
export const publiclyVisible: SQL = sql`${products.state} in ('available', 'reserved', 'sold') and ${products.moderation} is null`;

/** Available to wish for and book. */
export const isAvailable: SQL = sql`${products.inStock} = 'available'`;

export const selectProducts = (db: Executor) =>
  db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(users, eq(users.id, products.sellerId));

export type ProductRecord = Awaited<ReturnType<ReturnType<typeof selectProducts>['execute']>>[number];

/** postedDate and postedTime are local (server time zone) en-US strings; postedAt is the exact instant. */
export function postedFields(postedAt: Date) {
  return {
    postedAt: postedAt.toISOString(),
    postedDate: postedAt.toLocaleDateString('en-US'),
    postedTime: postedAt.toLocaleTimeString('en-US'),
  };
}

function measurementsOf(row: Pick<ProductRecord, 'widthCm' | 'depthCm' | 'heightCm'>): Measurements | null {
  if (row.widthCm === null || row.depthCm === null || row.heightCm === null) return null;
  return { widthCm: Number(row.widthCm), depthCm: Number(row.depthCm), heightCm: Number(row.heightCm) };
}

/**
 * The one place a product row becomes what callers see: every answer that carries a product uses
 * it. The seller's e-mail and phone are withheld (empty) here, since most of these answers are
 * public and cached alike for every caller; the seller, admins and the seller's buyers read them
 * from `GET /api/products/{id}/contact` (decision 23).
 */
export function toProduct(row: ProductRecord): Product {
  return { ...toProductWithContact(row), sellerEmail: '', phone: '' };
}

/** What the API documentation says of `sellerEmail` and `phone` wherever `toProduct` answers. */
export const contactWithheldDescription =
  'Products carry `sellerEmail` and `phone` as empty strings: sellers’ contact details are never public; the seller, admins and buyers with a booking read them from `GET /api/products/{id}/contact` (decision 23).';

/** A product with its seller's contact details, for answers only its seller receives. */
export function toProductWithContact(row: ProductRecord): Product {
  return {
    _id: row.id,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    condition: row.condition,
    productName: row.productName,
    yearsOfUsedProduct: row.yearsOfUsedProduct,
    originalPrice: Number(row.originalPrice),
    resalePrice: Number(row.resalePrice),
    description: row.description,
    sellerName: row.sellerName,
    sellerEmail: row.sellerEmail,
    phone: row.phone,
    location: row.location,
    productImage: row.productImage,
    photos: row.photos.length > 0 ? row.photos : [row.productImage],
    measurements: measurementsOf(row),
    advertisement: row.advertisement,
    ...postedFields(row.postedAt),
    inStock: row.inStock,
    state: row.state,
    priceHistory: row.priceHistory,
    reported: row.reported,
    sellerVerified: row.sellerVerified,
    sellerRating: toSellerRating(row.sellerRating),
    point: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
  };
}

export async function findProductById(db: Executor, id: string): Promise<ProductRecord | undefined> {
  const [row] = await selectProducts(db).where(eq(products.id, id));
  return row;
}

/** The tables a product as listed (`productSelectList`) is read from. */
export const listedProductsFrom: SQL = sql`${products} inner join ${categories} on ${eq(categories.id, products.categoryId)} inner join ${users} on ${eq(users.id, products.sellerId)}`;

/**
 * Products as listed, read by a statement PostgreSQL plans once for any value (decision 30):
 * `rest` follows the tables (where, order, a constant limit) and holds the values only as
 * parameters, so that its text is the same for every product.
 */
export async function preparedProducts(db: Executor, rest: SQL): Promise<ProductRecord[]> {
  const rows = await executePrepared(db, sql`select ${productSelectList} from ${listedProductsFrom} ${rest}`);
  return rows.map(productRecordOf);
}

/** A product anyone may open, or undefined when there is none (or it is not public). */
export async function findPublicProduct(db: Executor, id: string): Promise<ProductRecord | undefined> {
  const [row] = await preparedProducts(db, sql`where ${and(eq(products.id, id), publiclyVisible)}`);
  return row;
}

/** How many products the sitemap lists: the available public ones. */
export async function countPublicProducts(db: Executor): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(products).where(and(isAvailable, publiclyVisible));
  return row!.count;
}

/** One file of the sitemap: available public products in id order. */
export async function listPublicProductPages(db: Executor, page: Page) {
  return db
    .select({ id: products.id, postedAt: products.postedAt })
    .from(products)
    .where(and(isAvailable, publiclyVisible))
    .orderBy(asc(products.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Newest first; served by the partial index of advertised, available products. */
export async function listAdvertisedProducts(db: Executor, page: Page): Promise<ProductRecord[]> {
  return selectProducts(db)
    .where(and(eq(products.advertisement, true), eq(products.inStock, 'available'), publiclyVisible))
    .orderBy(desc(products.postedAt), desc(products.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A category's products: those still available first, then those sold (shown as Unavailable),
 * newest first within each; served by the (category, stock, posted) index.
 */
export async function listProductsInCategory(db: Executor, categoryId: string, page: Page): Promise<ProductRecord[]> {
  return selectProducts(db)
    .where(and(eq(products.categoryId, categoryId), publiclyVisible))
    .orderBy(asc(products.inStock), desc(products.postedAt), desc(products.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Everything a seller listed, in every state, newest first, with when it expires and how many
 * wishes and bookings it has; served by the (seller, posted) index.
 */
export async function listProductsOfSeller(db: Executor, sellerId: string, page: Page): Promise<SellerProduct[]> {
  const rows = await db
    .select({
      ...productColumns,
      expiresAt: products.expiresAt,
      moderation: products.moderation,
      moderationReason: products.moderationReason,
      moderatedAt: products.moderatedAt,
      hiddenBySuspension: products.hiddenBySuspension,
      views: sql<number>`coalesce(${productViews.views}, 0)`,
      wishCount: sql<number>`(select count(*)::int from ${wishes} where ${wishes.productId} = ${products.id})`,
      bookingCount: sql<number>`(select count(*)::int from ${bookings} where ${bookings.productId} = ${products.id})`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(productViews, eq(productViews.productId, products.id))
    .where(eq(products.sellerId, sellerId))
    .orderBy(desc(products.postedAt), desc(products.id))
    .limit(page.limit)
    .offset(page.offset);
  // The appeal of a listing still out of the market: once it is back, the seller was told by e-mail.
  const appeals = await latestAppealsOf(db, rows.filter((row) => row.moderatedAt).map((row) => row.id));
  return rows.map((row) => {
    const appeal = appeals.get(row.id);
    const appealedThisHiding = appeal?.hiddenAt.getTime() === row.moderatedAt?.getTime();
    return {
      ...toProductWithContact(row),
      expiresAt: row.expiresAt.toISOString(),
      views: row.views,
      moderation: row.moderation,
      moderationReason: row.moderationReason,
      wishCount: row.wishCount,
      bookingCount: row.bookingCount,
      appeal: appeal ? toAppeal(appeal) : null,
      canAppeal: row.moderation === 'hidden' && !row.hiddenBySuspension && !appealedThisHiding,
    };
  });
}

export interface NewProduct {
  categoryId: string;
  sellerId: string;
  condition: Condition;
  productName: string;
  yearsOfUsedProduct: string;
  originalPrice: number;
  resalePrice: number;
  description: string;
  phone: string;
  location: string;
  /** The cover first; productImage is the cover. */
  photos: string[];
  measurements: Measurements | null;
}

/**
 * A new listing starts not advertised, available and not reported (the table's defaults), and
 * expires at `expiresAt`.
 */
export async function insertProduct(
  db: Executor,
  { photos, measurements, ...product }: NewProduct,
  expiresAt: Date,
): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      ...product,
      productImage: photos[0]!,
      photos,
      widthCm: measurements?.widthCm ?? null,
      depthCm: measurements?.depthCm ?? null,
      heightCm: measurements?.heightCm ?? null,
      originalPrice: product.originalPrice.toFixed(2),
      resalePrice: product.resalePrice.toFixed(2),
      expiresAt,
    })
    .returning({ id: products.id });
  return row!.id;
}

export async function advertiseProduct(db: Executor, id: string): Promise<void> {
  await db.update(products).set({ advertisement: true }).where(eq(products.id, id));
}

/**
 * A booking counts as paid when the payment flow marked it so or a succeeded payment names it.
 * Paid bookings are the buyer's record of a purchase and are never removed with a product.
 */
export const bookingIsPaid = sql`(${bookings.paymentStatus} = 'paid' or exists (
  select 1 from ${payments}
  where ${payments.bookingId} = ${bookings.id} and ${payments.status} = 'succeeded'
    and (${payments.productId} = ${bookings.productId} or ${payments.buyerId} = ${bookings.buyerId})
))`;

/**
 * Removes products and what hangs on them: wishes and unpaid bookings. Paid bookings stay (the
 * foreign key clears their product) and payments are never touched. Run inside a transaction.
 */
async function deleteProductsWhere(tx: Executor, which: SQL): Promise<number> {
  // Locked first, so a wish or booking being added to one of them either finishes before (and is
  // removed here) or waits and then finds the product gone.
  await tx.select({ id: products.id }).from(products).where(which).for('update');
  const doomed = tx.select({ id: products.id }).from(products).where(which);
  await tx.delete(wishes).where(inArray(wishes.productId, doomed));
  await tx.delete(bookings).where(and(inArray(bookings.productId, doomed), sql`not ${bookingIsPaid}`));
  const deleted = await tx.delete(products).where(which).returning({ id: products.id });
  return deleted.length;
}

export async function deleteProductWithDependents(tx: Executor, productId: string): Promise<number> {
  return deleteProductsWhere(tx, eq(products.id, productId));
}

export async function deleteProductsOfSeller(tx: Executor, sellerId: string): Promise<number> {
  return deleteProductsWhere(tx, eq(products.sellerId, sellerId));
}
