import { desc, eq, sql } from 'drizzle-orm';
import type { SellerBooking } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, products, users } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';
import { bookingIsPaid } from '../products/product-repository.ts';
import { protectionColumns } from './buyer-protection.ts';

/**
 * Every booking on a seller's products, newest first, with what the seller needs to meet the
 * buyer and what the sale brings them after the fee fixed on the booking. Bookings whose product was deleted are no longer the seller's to see.
 */
export async function listBookingsOfSeller(db: Executor, sellerId: string, page: Page): Promise<SellerBooking[]> {
  const rows = await db
    .select({
      id: bookings.id,
      productId: bookings.productId,
      productName: bookings.productName,
      productImage: bookings.productImage,
      productPrice: bookings.productPrice,
      agreedPriceCents: bookings.agreedPriceCents,
      feeCents: bookings.feeCents,
      sellerReceivesCents: sql<number>`${bookings.agreedPriceCents} - ${bookings.feeCents}`.mapWith(Number),
      productState: products.state,
      buyerName: users.name,
      buyerEmail: users.email,
      phoneNumber: bookings.phoneNumber,
      location: bookings.location,
      bookedAt: bookings.createdAt,
      paid: sql<boolean>`${bookingIsPaid}`,
      status: bookings.status,
      statusReason: bookings.statusReason,
      ...protectionColumns,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .innerJoin(users, eq(users.id, bookings.buyerId))
    .where(eq(products.sellerId, sellerId))
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(({ id, productPrice, bookedAt, releaseAt, ...row }) => ({
    _id: id,
    ...row,
    productPrice: Number(productPrice),
    bookedAt: bookedAt.toISOString(),
    releaseAt: releaseAt?.toISOString() ?? null,
  }));
}
