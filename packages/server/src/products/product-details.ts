import { and, eq, ne, sql } from 'drizzle-orm';
import { SIMILAR_PRODUCTS_LIMIT, type GoneProduct, type ProductDetails, type SellerProfile } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { outOfPlannersSight } from '../db/prepared.ts';
import { products, users } from '../db/schema/index.ts';
import {
  findPublicProduct,
  isAvailable,
  preparedProducts,
  publiclyVisible,
  sellerRatingOf,
  toProduct,
  toSellerRating,
  type ProductRecord,
} from './product-repository.ts';

/**
 * What anyone may know of a seller: no e-mail, sales only as a count, and how they are rated. Both
 * statements are prepared, planned once for any seller (decision 30).
 */
export async function sellerProfile(db: Executor, sellerId: string): Promise<SellerProfile> {
  const [[row], [sales]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        image: users.image,
        verified: users.verified,
        createdAt: users.createdAt,
        rating: sellerRatingOf(users.id),
      })
      .from(users)
      .where(eq(users.id, sellerId))
      .prepare('seller_profile')
      .execute(),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(products)
      // The state in the text: as a parameter, PostgreSQL costed a plan for any state above the
      // plans for 'sold' and planned the count anew for each seller.
      .where(and(eq(products.sellerId, sellerId), sql`${products.inStock} = 'sold'`))
      .prepare('seller_items_sold')
      .execute(),
  ]);
  const rating = toSellerRating(row!.rating);
  return {
    _id: row!.id,
    name: row!.name,
    image: row!.image,
    verified: row!.verified,
    memberSince: row!.createdAt.toISOString(),
    itemsSold: sales!.count,
    rating: rating?.average ?? null,
    reviewCount: row!.rating.count,
  };
}

/**
 * Up to SIMILAR_PRODUCTS_LIMIT available products of the same category, closest in price: the
 * nearest below and above are read along the (category, price) index, then the closest chosen.
 * The limit is in the statements' text and the price out of the planner's sight, so that
 * PostgreSQL plans them once for any product.
 */
export async function listSimilarProducts(db: Executor, product: Pick<ProductRecord, 'id' | 'categoryId' | 'resalePrice'>) {
  const sameCategory = and(eq(products.categoryId, product.categoryId), ne(products.id, product.id), isAvailable, publiclyVisible);
  const price = outOfPlannersSight(sql`${product.resalePrice}::numeric`);
  const limit = sql.raw(String(SIMILAR_PRODUCTS_LIMIT));
  const [above, below] = await Promise.all([
    preparedProducts(db, sql`where ${sameCategory} and ${products.resalePrice} >= ${price} order by ${products.resalePrice} asc, ${products.id} asc limit ${limit}`),
    preparedProducts(db, sql`where ${sameCategory} and ${products.resalePrice} < ${price} order by ${products.resalePrice} desc, ${products.id} desc limit ${limit}`),
  ]);
  const asked = Number(product.resalePrice);
  return [...above, ...below]
    .sort((a, b) => Math.abs(Number(a.resalePrice) - asked) - Math.abs(Number(b.resalePrice) - asked))
    .slice(0, SIMILAR_PRODUCTS_LIMIT);
}

/** The product page's data, or undefined when no public product has this id. */
export async function findProductDetails(db: Executor, id: string): Promise<ProductDetails | undefined> {
  const row = await findPublicProduct(db, id);
  if (!row) return undefined;
  const [seller, similar] = await Promise.all([sellerProfile(db, row.sellerId), listSimilarProducts(db, row)]);
  return {
    ...toProduct(row),
    category: { _id: row.categoryId, categoryName: row.categoryName },
    seller,
    similar: similar.map(toProduct),
  };
}

/**
 * A listing that exists but is no longer public (hidden, removed, withdrawn, expired): its name and
 * similar pieces on sale, for the page that says it is gone; undefined when no listing has this id.
 */
export async function findGoneProduct(db: Executor, id: string): Promise<GoneProduct['data'] | undefined> {
  const [row] = await db
    .select({ id: products.id, productName: products.productName, categoryId: products.categoryId, resalePrice: products.resalePrice })
    .from(products)
    .where(eq(products.id, id));
  if (!row) return undefined;
  const similar = await listSimilarProducts(db, row);
  return { _id: row.id, productName: row.productName, similar: similar.map(toProduct) };
}
