import { and, eq, isNotNull } from 'drizzle-orm';
import type { ProductMarks } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, products, wishes } from '../db/schema/index.ts';

/** The ids of the products a person has wished for, booked and listed, read through their (buyer, …) and (seller, …) indexes. */
export async function productMarksOf(db: Executor, buyerId: string): Promise<ProductMarks> {
  const [wished, booked, own] = await Promise.all([
    db.select({ productId: wishes.productId }).from(wishes).where(eq(wishes.buyerId, buyerId)),
    db
      .select({ productId: bookings.productId })
      .from(bookings)
      .where(and(eq(bookings.buyerId, buyerId), isNotNull(bookings.productId))),
    db.select({ productId: products.id }).from(products).where(eq(products.sellerId, buyerId)),
  ]);
  return {
    wishedProductIds: wished.map((row) => row.productId),
    bookedProductIds: booked.flatMap((row) => (row.productId ? [row.productId] : [])),
    ownProductIds: own.map((row) => row.productId),
  };
}
