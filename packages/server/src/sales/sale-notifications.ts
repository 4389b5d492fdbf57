import { eq } from 'drizzle-orm';
import type { BookingStatus } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { wishes } from '../db/schema/index.ts';
import { MAX_ADDRESSEES, publishLiveEvent } from '../events/live-events.ts';

/**
 * What the sale tells people as it happens, in the transaction of the change. Each function is a
 * seam the notifications feature extends (a stored notification, an e-mail); today each publishes
 * a live event, so open tabs refresh at once.
 */

/** A booking or listing changed: the buyers and the seller concerned reload what they show. */
export async function publishSaleChange(
  tx: Executor,
  to: string[],
  change: { bookingId: string | null; productId: string | null; status: BookingStatus | null },
) {
  await publishLiveEvent(tx, { to, type: 'sale.changed', data: change });
}

/** The asking price of a piece went down: the people who wished for it hear of it. */
export async function notifyWishersOfPriceDrop(
  tx: Executor,
  drop: { productId: string; productName: string; oldPrice: number; newPrice: number },
) {
  const wishers = await tx.select({ buyerId: wishes.buyerId }).from(wishes).where(eq(wishes.productId, drop.productId));
  const ids = wishers.map((wisher) => wisher.buyerId).sort();
  // In ascending batches, so the per-person locks of live events are still taken in id order.
  for (let i = 0; i < ids.length; i += MAX_ADDRESSEES) {
    await publishLiveEvent(tx, { to: ids.slice(i, i + MAX_ADDRESSEES), type: 'product.price-dropped', data: drop });
  }
}

/** A listing expires in a few days unless its seller renews it. */
export async function notifyListingExpiresSoon(
  tx: Executor,
  reminder: { sellerId: string; productId: string; productName: string; expiresAt: string },
) {
  await publishLiveEvent(tx, { to: reminder.sellerId, type: 'listing.expires-soon', data: reminder });
}
