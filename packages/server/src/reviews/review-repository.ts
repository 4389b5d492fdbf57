import { and, desc, eq, isNull } from 'drizzle-orm';
import { PROFILE_LISTINGS_LIMIT, PROFILE_REVIEWS_LIMIT, REVIEW_EDIT_DAYS, type Review, type SellerPage } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products, reviews, users } from '../db/schema/index.ts';
import { sellerProfile } from '../products/product-details.ts';
import { isAvailable, publiclyVisible, selectProducts, toProduct } from '../products/product-repository.ts';

const EDIT_WINDOW_MS = REVIEW_EDIT_DAYS * 24 * 60 * 60 * 1000;

export const editableUntil = (createdAt: Date) => new Date(createdAt.getTime() + EDIT_WINDOW_MS);

const reviewColumns = {
  id: reviews.id,
  bookingId: reviews.bookingId,
  authorId: reviews.authorId,
  authorName: users.name,
  subjectId: reviews.subjectId,
  authorRole: reviews.authorRole,
  rating: reviews.rating,
  text: reviews.text,
  createdAt: reviews.createdAt,
};

type ReviewRecord = { createdAt: Date } & Omit<Review, '_id' | 'createdAt' | 'editableUntil'>;

export const toReview = (row: ReviewRecord): Review => ({
  ...row,
  _id: row.id,
  createdAt: row.createdAt.toISOString(),
  editableUntil: editableUntil(row.createdAt).toISOString(),
});

export async function findReview(db: Executor, id: string): Promise<Review | undefined> {
  const [row] = await db.select(reviewColumns).from(reviews).innerJoin(users, eq(users.id, reviews.authorId)).where(eq(reviews.id, id));
  return row && toReview(row);
}

/**
 * A seller's public page: their summary (as on the product page), their newest reviews and their
 * listings available now. A suspended seller has none.
 */
export async function sellerPage(db: Executor, sellerId: string): Promise<SellerPage | undefined> {
  const [seller] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.role, 'seller'), isNull(users.suspendedAt)));
  if (!seller) return undefined;
  const [profile, latest, listings] = await Promise.all([
    sellerProfile(db, sellerId),
    db
      .select(reviewColumns)
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.authorId))
      .where(eq(reviews.subjectId, sellerId))
      .orderBy(desc(reviews.createdAt))
      .limit(PROFILE_REVIEWS_LIMIT),
    selectProducts(db)
      .where(and(eq(products.sellerId, sellerId), isAvailable, publiclyVisible))
      .orderBy(desc(products.postedAt))
      .limit(PROFILE_LISTINGS_LIMIT),
  ]);
  return { ...profile, reviews: latest.map(toReview), listings: listings.map(toProduct) };
}
