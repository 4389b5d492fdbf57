import { eq } from 'drizzle-orm';
import { notificationTexts, webRoutes, type BookingStatus } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { wishes } from '../db/schema/index.ts';
import { MAX_ADDRESSEES, publishLiveEvent } from '../events/live-events.ts';
import { notify, usd } from '../notifications/notify.ts';

/**
 * What the sale tells people as it happens, in the transaction of the change: a live event, so open
 * tabs refresh at once, and for the steps a person should hear of, a notification (decision 22),
 * which is also e-mailed as they chose.
 */

interface SaleOfPiece {
  productId: string | null;
  productName: string;
  productImage: string;
}

const pieceImage = (sale: SaleOfPiece) => ({ image: sale.productImage });

/** The seller accepted or declined a buyer's booking. */
export async function notifyBookingAnswered(tx: Executor, buyerId: string, sale: SaleOfPiece, answer: 'accepted' | 'declined') {
  await notify(tx, {
    to: buyerId,
    kind: answer === 'accepted' ? 'booking-accepted' : 'booking-declined',
    text: answer === 'accepted' ? notificationTexts.bookingAccepted(sale.productName) : notificationTexts.bookingDeclined(sale.productName),
    link: webRoutes.dashboard.myOrders,
    ...pieceImage(sale),
  });
}

/** A buyer paid for a seller's piece. */
export async function notifyPaymentReceived(tx: Executor, sellerId: string, sale: SaleOfPiece & { amount: string }) {
  await notify(tx, {
    to: sellerId,
    kind: 'payment-received',
    text: notificationTexts.paymentReceived(usd(sale.amount), sale.productName),
    link: webRoutes.dashboard.sellerBookings,
    ...pieceImage(sale),
  });
}

interface SaleChange {
  bookingId: string | null;
  productId: string | null;
  status: BookingStatus | null;
}

/** The live event of a booking or listing that changed: the buyers and the seller concerned reload what they show. */
const saleChanged = (change: SaleChange) => ({ type: 'sale.changed', data: change });

/** A booking or listing changed: tells the buyers and the seller concerned. */
export async function publishSaleChange(tx: Executor, to: string[], change: SaleChange) {
  await publishLiveEvent(tx, { to, ...saleChanged(change) });
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
    const batch = ids.slice(i, i + MAX_ADDRESSEES);
    await publishLiveEvent(tx, { to: batch, type: 'product.price-dropped', data: drop });
    await notify(tx, {
      to: batch,
      kind: 'price-drop',
      text: notificationTexts.priceDrop(drop.productName, usd(drop.newPrice)),
      link: webRoutes.product.replace(':id', drop.productId),
    });
  }
}

/** A listing expires in a few days unless its seller renews it. */
export async function notifyListingExpiresSoon(
  tx: Executor,
  reminder: { sellerId: string; productId: string; productName: string; expiresAt: string },
) {
  await publishLiveEvent(tx, { to: reminder.sellerId, type: 'listing.expires-soon', data: reminder });
  await notify(tx, {
    to: reminder.sellerId,
    kind: 'listing-expiring',
    text: notificationTexts.listingExpiring(reminder.productName),
    link: webRoutes.dashboard.myProducts,
  });
}
