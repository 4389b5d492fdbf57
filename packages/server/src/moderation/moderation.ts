import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { trustTexts, webRoutes, type BookingStatus, type ModerationAction, type ModerationState } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import type { payments} from '../db/schema/index.ts';
import { bookings, products, users } from '../db/schema/index.ts';
import { publishLiveEvent } from '../events/live-events.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { renderMail } from '../mail/mail-layout.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { changeBooking } from '../sales/sale-transitions.ts';
import { endAllSessions } from '../users/refresh-tokens.ts';
import { authorOfMessage, removeMessage } from './message-reports.ts';
import { lockReport, resolveReportsOf, type ReportRow } from './report-repository.ts';

/**
 * What an admin does about a report (decision 23). Each action runs in the caller's transaction,
 * beside its audit entry, and resolves every open report of the same target.
 */

export interface ModerationOutcome {
  report: ReportRow;
  /** Paid sales of a suspended seller, owed back: refunded through the provider once this commits. */
  paymentsToRefund: (typeof payments.$inferSelect)[];
}

interface ModerationRequest {
  reportId: string;
  action: ModerationAction;
  reason: string;
  publicUrl: string;
}

/** Bookings a moderation ends: those still in play, and paid ones (refunded) when a seller is suspended. */
const liveBookingStatuses = ['open', 'accepted'] as const satisfies readonly BookingStatus[];

export async function moderate(tx: Executor, request: ModerationRequest): Promise<ModerationOutcome> {
  const report = await lockReport(tx, request.reportId);
  if (!report) throw notFound(trustTexts.reportNotFound);
  const target = { targetType: report.targetType, targetId: report.targetId };
  const outcome: ModerationOutcome = { report, paymentsToRefund: [] };

  switch (request.action) {
    case 'dismiss':
      if (report.status !== 'open') throw conflict(trustTexts.reportNotFound);
      await resolveReportsOf(tx, target, 'dismissed');
      return outcome;
    case 'hide':
    case 'remove':
    case 'restore': {
      if (report.targetType === 'message') {
        if (request.action !== 'remove') throw conflict(trustTexts.actionNotForMessage);
        if (!(await removeMessage(tx, report.targetId))) throw notFound(trustTexts.reportTargetNotFound);
        await resolveReportsOf(tx, target, 'actioned');
        return outcome;
      }
      if (report.targetType !== 'product') throw conflict(trustTexts.actionNotForUser);
      const product = await lockListing(tx, report.targetId);
      if (request.action === 'restore') {
        if (!product.moderation) throw conflict(trustTexts.nothingToRestore);
        await tx.update(products).set({ moderation: null, moderationReason: null }).where(eq(products.id, product.id));
      } else {
        const state: ModerationState = request.action === 'hide' ? 'hidden' : 'removed';
        await tx.update(products).set({ moderation: state, moderationReason: request.reason }).where(eq(products.id, product.id));
        await endLiveBookingsOf(tx, [product.id], product.sellerId, request.reason);
        await tellSellerOfModeration(tx, { ...product, state, reason: request.reason, publicUrl: request.publicUrl });
      }
      await resolveReportsOf(tx, target, 'actioned');
      return outcome;
    }
    case 'suspend': {
      const accountId = await accountToSuspend(tx, report);
      outcome.paymentsToRefund = await suspendAccount(tx, accountId, request.reason);
      await resolveReportsOf(tx, target, 'actioned');
      return outcome;
    }
  }
}

/** Whom `suspend` suspends: the reported account, a listing's seller or a message's author. */
async function accountToSuspend(tx: Executor, report: ReportRow): Promise<string> {
  if (report.targetType === 'user') return report.targetId;
  if (report.targetType === 'product') return (await lockListing(tx, report.targetId)).sellerId;
  const authorId = await authorOfMessage(tx, report.targetId);
  if (!authorId) throw notFound(trustTexts.reportTargetNotFound);
  return authorId;
}

async function lockListing(tx: Executor, productId: string) {
  const [product] = await tx
    .select({ id: products.id, productName: products.productName, sellerId: products.sellerId, moderation: products.moderation })
    .from(products)
    .where(eq(products.id, productId))
    .for('update');
  if (!product) throw notFound(trustTexts.reportTargetNotFound);
  return product;
}

/** Declines the bookings still in play of these listings, through the sale's own states, with the admin's reason. */
async function endLiveBookingsOf(tx: Executor, productIds: string[], sellerId: string, reason: string) {
  if (productIds.length === 0) return;
  const live = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(inArray(bookings.productId, productIds), inArray(bookings.status, liveBookingStatuses)));
  for (const booking of live) await changeBooking(tx, { bookingId: booking.id, action: 'decline', callerId: sellerId, reason });
}

/**
 * Suspends an account: it cannot sign in or list, every session ends at once, its listings are
 * hidden, the bookings of its listings still in play are declined and paid ones refunded, and its
 * own bookings still in play are cancelled. Answers the payments to refund after commit.
 */
async function suspendAccount(tx: Executor, userId: string, reason: string) {
  const [account] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!account) throw notFound(trustTexts.reportTargetNotFound);
  if (account.role === 'admin') throw forbidden(trustTexts.cannotSuspendAdmin);
  await tx.update(users).set({ suspendedAt: account.suspendedAt ?? new Date() }).where(eq(users.id, userId));
  await endAllSessions(tx, userId);

  const listings = await tx.select({ id: products.id }).from(products).where(eq(products.sellerId, userId)).orderBy(products.id).for('update');
  const listingIds = listings.map((listing) => listing.id);
  const paymentsToRefund = [];
  if (listingIds.length > 0) {
    await tx
      .update(products)
      .set({ moderation: 'hidden', moderationReason: reason })
      .where(and(eq(products.sellerId, userId), isNull(products.moderation)));
    const toEnd = await tx
      .select({ id: bookings.id, status: bookings.status })
      .from(bookings)
      .where(and(inArray(bookings.productId, listingIds), or(inArray(bookings.status, liveBookingStatuses), eq(bookings.status, 'paid'))));
    for (const booking of toEnd) {
      const action = booking.status === 'paid' ? 'refund' : 'decline';
      const change = await changeBooking(tx, { bookingId: booking.id, action, callerId: userId, reason });
      if (change.paymentToRefund) paymentsToRefund.push(change.paymentToRefund);
    }
  }
  const ownBookings = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.buyerId, userId), inArray(bookings.status, liveBookingStatuses)));
  for (const booking of ownBookings) await changeBooking(tx, { bookingId: booking.id, action: 'cancel', callerId: userId });
  return paymentsToRefund;
}

/** The seller hears at once (live event) and by e-mail why the listing went. */
async function tellSellerOfModeration(
  tx: Executor,
  listing: { id: string; productName: string; sellerId: string; state: ModerationState; reason: string; publicUrl: string },
) {
  const [seller] = await tx.select({ email: users.email }).from(users).where(eq(users.id, listing.sellerId));
  const heading = listing.state === 'hidden' ? trustTexts.listingHiddenTitle(listing.productName) : trustTexts.listingRemovedTitle(listing.productName);
  await publishLiveEvent(tx, {
    to: listing.sellerId,
    type: 'listing.moderated',
    data: { productId: listing.id, productName: listing.productName, moderation: listing.state, reason: listing.reason },
  });
  if (!seller) return;
  const paragraphs = [trustTexts.listingModeratedBody(listing.reason)];
  await queueMail(tx, {
    to: seller.email,
    subject: heading,
    ...renderMail({ heading, paragraphs, action: { label: trustTexts.openMyProducts, path: webRoutes.dashboard.myProducts } }, listing.publicUrl),
  });
}
