import { and, eq, isNotNull } from 'drizzle-orm';
import type { ProductMarks } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, wishes } from '../db/schema/index.ts';

/** The ids of the products a person has wished for and booked, read through their (buyer, …) indexes. */
export async function productMarksOf(db: Executor, buyerId: string): Promise<ProductMarks> {
  const [wished, booked] = await Promise.all([
    db.select({ productId: wishes.productId }).from(wishes).where(eq(wishes.buyerId, buyerId)),
    db
      .select({ productId: bookings.productId })
      .from(bookings)
      .where(and(eq(bookings.buyerId, buyerId), isNotNull(bookings.productId))),
  ]);
  return {
    wishedProductIds: wished.map((row) => row.productId),
    bookedProductIds: booked.flatMap((row) => (row.productId ? [row.productId] : [])),
  };
}
