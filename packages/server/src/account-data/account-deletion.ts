import { and, eq, inArray, sql } from 'drizzle-orm';
import { accountDataTexts, DELETED_ACCOUNT_NAME, type BookingStatus } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import {
  accountTokens,
  bookings,
  notifications,
  notificationSettings,
  offers,
  passkeyChallenges,
  passkeys,
  products,
  refreshTokens,
  userIdentities,
  users,
  wishes,
} from '../db/schema/index.ts';
import { conflict } from '../http/errors.ts';
import { closeOpenOffersOfPerson } from '../conversations/offer-expiry.ts';
import { changeBooking, changeListing, listingTransitions, type BookingChange } from '../sales/sale-transitions.ts';

const { server } = accountDataTexts;

/** Bookings whose sale is not over: a seller's answer, the payment or the handover is still to come. */
const inPlay = ['open', 'accepted', 'paid'] as const satisfies readonly BookingStatus[];

/** The address a deleted account keeps: unique, never delivered (`.invalid`, RFC 2606), so the real one can register again. */
export const deletedEmailOf = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * Refuses to delete the last admin. Every admin row is locked, in id order, so two admins deleting
 * themselves at once queue here and the second sees the first gone.
 */
async function assertNotLastAdmin(tx: Executor, userId: string) {
  const admins = await tx
    .select({ id: users.id, suspendedAt: users.suspendedAt })
    .from(users)
    .where(sql`'admin' = any(${users.capabilities})`)
    .orderBy(users.id)
    .for('update');
  if (!admins.some((admin) => admin.id !== userId && admin.suspendedAt === null)) throw conflict(server.lastAdmin);
}

/**
 * Ends every sale of the account still in play through the sale's own transitions, as each side
 * would (decision 44): as the buyer it cancels unpaid bookings; as the seller it declines them,
 * telling each buyer why. A paid sale not yet handed over is refunded to its buyer as a seller's
 * refund is, whichever side is leaving: the marketplace takes the seller's step for a buyer who
 * leaves. Answers the payments to refund through the provider once this commits.
 */
async function endSalesInPlay(tx: Executor, userId: string): Promise<NonNullable<BookingChange['paymentToRefund']>[]> {
  const sales = await tx
    .select({ id: bookings.id, status: bookings.status, buyerId: bookings.buyerId, sellerId: products.sellerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(and(inArray(bookings.status, inPlay), sql`(${bookings.buyerId} = ${userId} or ${products.sellerId} = ${userId})`))
    .orderBy(bookings.id);
  const refunds = [];
  for (const sale of sales) {
    const asBuyer = sale.buyerId === userId;
    const change =
      sale.status === 'paid'
        ? await changeBooking(tx, { bookingId: sale.id, action: 'refund', callerId: sale.sellerId })
        : asBuyer
          ? await changeBooking(tx, { bookingId: sale.id, action: 'cancel', callerId: userId })
          : await changeBooking(tx, { bookingId: sale.id, action: 'decline', callerId: userId, reason: server.sellerLeft });
    if (change.paymentToRefund) refunds.push(change.paymentToRefund);
  }
  return refunds;
}

/** Takes down every listing still on the market (or expired), as the seller's "withdraw" does. */
async function withdrawListings(tx: Executor, userId: string) {
  const listings = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, userId), inArray(products.state, listingTransitions.withdraw.from)))
    .orderBy(products.id);
  for (const listing of listings) await changeListing(tx, { productId: listing.id, action: 'withdraw', sellerId: userId });
}

/**
 * Removes what identifies the person and what only they used, keeping the rows the other side,
 * the books and the law need (decision 44).
 */
async function removePersonalData(tx: Executor, userId: string) {
  // Deleting the sessions ends them on every server (the table's trigger announces each).
  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  await tx.delete(userIdentities).where(eq(userIdentities.userId, userId));
  await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
  await tx.delete(wishes).where(eq(wishes.buyerId, userId));
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  await tx.delete(notificationSettings).where(eq(notificationSettings.userId, userId));
  await tx.update(bookings).set({ phoneNumber: '' }).where(eq(bookings.buyerId, userId));
  await tx.update(offers).set({ phoneNumber: null, meetingPlace: null }).where(eq(offers.senderId, userId));
  await tx.update(products).set({ phone: '' }).where(eq(products.sellerId, userId));
  await tx
    .update(users)
    .set({
      name: DELETED_ACCOUNT_NAME,
      email: deletedEmailOf(userId),
      image: null,
      phone: null,
      location: null,
      passwordHash: null,
      emailVerified: false,
      // No capability: nothing is open to the row, whatever might still name it.
      capabilities: [],
      role: 'buyer',
    })
    .where(eq(users.id, userId));
}

/**
 * Deletes the account in the caller's transaction, its identity already proven: the last admin
 * stays (409), sales in play end, listings come down, open offers close, personal data goes.
 * The user row is locked first, so the account changes nowhere else meanwhile. Answers the
 * payments to refund once the transaction commits.
 */
export async function deleteAccount(tx: Executor, userId: string) {
  const [user] = await tx.select({ capabilities: users.capabilities }).from(users).where(eq(users.id, userId)).for('update');
  if (user?.capabilities.includes('admin')) await assertNotLastAdmin(tx, userId);
  const refunds = await endSalesInPlay(tx, userId);
  await withdrawListings(tx, userId);
  await closeOpenOffersOfPerson(tx, userId);
  await removePersonalData(tx, userId);
  return refunds;
}
