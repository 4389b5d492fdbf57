import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { labels, trustTexts, webRoutes, type AppealAnswer, type BookingStatus, type ModerationAction, type ModerationState } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import type { payments } from '../db/schema/index.ts';
import { bookings, listingAppeals, products, users } from '../db/schema/index.ts';
import { closeOpenOffersOfProduct } from '../conversations/offer-expiry.ts';
import { publishLiveEvent } from '../events/live-events.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { renderMail } from '../mail/mail-layout.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { changeBooking } from '../sales/sale-transitions.ts';
import { endAllSessions } from '../users/refresh-tokens.ts';
import { insertAppeal, lockAppeal, settlePendingAppeal, type AppealRow } from '../products/appeal-repository.ts';
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
    case 'restore':
      if (report.targetType === 'message') throw conflict(trustTexts.actionNotForMessage);
      if (report.targetType === 'user') await liftSuspension(tx, report.targetId, request.reason, request.publicUrl);
      else await restoreListing(tx, await lockListing(tx, report.targetId), request.reason, request.publicUrl);
      await resolveReportsOf(tx, target, 'actioned');
      return outcome;
    case 'hide':
    case 'remove': {
      if (report.targetType === 'message') {
        if (request.action !== 'remove') throw conflict(trustTexts.actionNotForMessage);
        if (!(await removeMessage(tx, report.targetId))) throw notFound(trustTexts.reportTargetNotFound);
        await resolveReportsOf(tx, target, 'actioned');
        return outcome;
      }
      if (report.targetType !== 'product') throw conflict(trustTexts.actionNotForUser);
      const product = await lockListing(tx, report.targetId);
      const state: ModerationState = request.action === 'hide' ? 'hidden' : 'removed';
      await tx
        .update(products)
        // Hiding a listing already out keeps the hiding it is: one appeal per hiding.
        .set({ moderation: state, moderationReason: request.reason, moderatedAt: product.moderatedAt ?? new Date(), hiddenBySuspension: false })
        .where(eq(products.id, product.id));
      // An admin hiding or removing it again is the answer to an appeal waiting.
      await settlePendingAppeal(tx, product.id, 'refused', request.reason);
      await closeOpenOffersOfProduct(tx, product.id);
      await endLiveBookingsOf(tx, [product.id], product.sellerId, request.reason);
      await tellSeller(tx, { ...product, ...moderationNotice[state](request.reason), moderation: state, reason: request.reason, publicUrl: request.publicUrl });
      await resolveReportsOf(tx, target, 'actioned');
      return outcome;
    }
    case 'suspend': {
      const accountId = await accountToSuspend(tx, report);
      outcome.paymentsToRefund = await suspendAccount(tx, accountId, request.reason, request.publicUrl);
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
    .select({
      id: products.id,
      productName: products.productName,
      sellerId: products.sellerId,
      moderation: products.moderation,
      moderatedAt: products.moderatedAt,
    })
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
 * own bookings still in play are cancelled. Its owner is told by e-mail, with the reason. Answers
 * the payments to refund after commit.
 */
async function suspendAccount(tx: Executor, userId: string, reason: string, publicUrl: string) {
  const [account] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!account) throw notFound(trustTexts.reportTargetNotFound);
  if (account.role === 'admin') throw forbidden(trustTexts.cannotSuspendAdmin);
  await queueMail(tx, {
    to: account.email,
    subject: trustTexts.accountSuspendedTitle,
    ...renderMail({ heading: trustTexts.accountSuspendedTitle, paragraphs: [trustTexts.accountSuspendedBody(reason), trustTexts.accountSuspendedAppeal] }, publicUrl),
  });
  await tx.update(users).set({ suspendedAt: account.suspendedAt ?? new Date() }).where(eq(users.id, userId));
  await endAllSessions(tx, userId);

  const listings = await tx.select({ id: products.id }).from(products).where(eq(products.sellerId, userId)).orderBy(products.id).for('update');
  const listingIds = listings.map((listing) => listing.id);
  const paymentsToRefund = [];
  if (listingIds.length > 0) {
    // Only listings not already out for themselves, so that lifting the suspension brings back exactly these.
    await tx
      .update(products)
      .set({ moderation: 'hidden', moderationReason: reason, moderatedAt: new Date(), hiddenBySuspension: true })
      .where(and(eq(products.sellerId, userId), isNull(products.moderation)));
    for (const listingId of listingIds) await closeOpenOffersOfProduct(tx, listingId);
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

/**
 * Lifts a suspension: the account can sign in again and its listings hidden by the suspension come
 * back; those hidden or removed for themselves stay out. Cancelled bookings and refunds stay as
 * they are. The owner is told by e-mail, with the reason. Answers the account.
 */
export async function liftSuspension(tx: Executor, userId: string, reason: string, publicUrl: string) {
  const [account] = await tx.select({ id: users.id, email: users.email, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId)).for('update');
  if (!account) throw notFound(trustTexts.userNotFound);
  if (!account.suspendedAt) throw conflict(trustTexts.notSuspended);
  await tx.update(users).set({ suspendedAt: null }).where(eq(users.id, userId));
  await tx
    .update(products)
    .set({ moderation: null, moderationReason: null, moderatedAt: null, hiddenBySuspension: false })
    .where(and(eq(products.sellerId, userId), eq(products.hiddenBySuspension, true)));
  await queueMail(tx, {
    to: account.email,
    subject: trustTexts.accountRestoredTitle,
    ...renderMail(
      { heading: trustTexts.accountRestoredTitle, paragraphs: [trustTexts.accountRestoredBody(reason)], action: { label: labels.nav.logIn, path: webRoutes.login } },
      publicUrl,
    ),
  });
  return account;
}

type LockedListing = Awaited<ReturnType<typeof lockListing>>;

/** A hidden or removed listing returns as it was; a pending appeal is granted by it, and the seller is told. */
async function restoreListing(tx: Executor, product: LockedListing, reason: string, publicUrl: string) {
  if (!product.moderation) throw conflict(trustTexts.nothingToRestore);
  await tx
    .update(products)
    .set({ moderation: null, moderationReason: null, moderatedAt: null, hiddenBySuspension: false })
    .where(eq(products.id, product.id));
  await settlePendingAppeal(tx, product.id, 'granted', reason);
  await tellSeller(tx, { ...product, ...moderationNotice.restored(reason), moderation: null, reason, publicUrl });
}

/** A seller's one appeal of a hiding (not of a removal, nor of a suspension's hiding). */
export async function appealListing(tx: Executor, request: { productId: string; sellerId: string; text: string }): Promise<AppealRow> {
  const [product] = await tx
    .select({ sellerId: products.sellerId, moderation: products.moderation, moderatedAt: products.moderatedAt, hiddenBySuspension: products.hiddenBySuspension })
    .from(products)
    .where(eq(products.id, request.productId))
    .for('update');
  if (!product) throw notFound(trustTexts.listingNotFound);
  if (product.sellerId !== request.sellerId) throw forbidden(trustTexts.appealNotYours);
  if (product.moderation !== 'hidden' || product.hiddenBySuspension || !product.moderatedAt) throw conflict(trustTexts.appealNotHidden);
  const appeal = await insertAppeal(tx, { productId: request.productId, hiddenAt: product.moderatedAt, text: request.text });
  if (!appeal) throw conflict(trustTexts.appealAlreadySent);
  return appeal;
}

/**
 * An admin's answer to a pending appeal: `restore` brings the listing back, `keep` leaves it hidden
 * for good (the hiding was appealed once). The seller is told either way. Answers the listing.
 */
export async function answerAppeal(tx: Executor, request: { appealId: string; answer: AppealAnswer; reason: string; publicUrl: string }) {
  // The listing first, then the appeal: the order every change of a listing locks in.
  const [peek] = await tx.select({ productId: listingAppeals.productId }).from(listingAppeals).where(eq(listingAppeals.id, request.appealId));
  if (!peek) throw notFound(trustTexts.appealNotFound);
  const product = await lockListing(tx, peek.productId);
  const appeal = await lockAppeal(tx, request.appealId);
  if (appeal?.status !== 'pending') throw conflict(trustTexts.appealAlreadyAnswered);
  // Reports filed since the hiding stay open: the appeal answers the hiding, not them.
  if (request.answer === 'restore') {
    await restoreListing(tx, product, request.reason, request.publicUrl);
  } else {
    await settlePendingAppeal(tx, product.id, 'refused', request.reason);
    await tellSeller(tx, { ...product, ...moderationNotice.kept(request.reason), moderation: product.moderation, reason: request.reason, publicUrl: request.publicUrl });
  }
  return product;
}

/** What the seller reads, in the mail's heading and body, for each thing that befalls a listing. */
const moderationNotice = {
  hidden: (reason: string) => ({ heading: trustTexts.listingHiddenTitle, body: trustTexts.listingModeratedBody(reason) }),
  removed: (reason: string) => ({ heading: trustTexts.listingRemovedTitle, body: trustTexts.listingModeratedBody(reason) }),
  restored: (reason: string) => ({ heading: trustTexts.listingRestoredTitle, body: trustTexts.listingRestoredBody(reason) }),
  kept: (reason: string) => ({ heading: trustTexts.appealKeptTitle, body: trustTexts.appealKeptBody(reason) }),
};

/** The seller hears at once (live event) and by e-mail what an admin did with the listing, and why. */
async function tellSeller(
  tx: Executor,
  listing: {
    id: string;
    productName: string;
    sellerId: string;
    moderation: ModerationState | null;
    reason: string;
    heading: (productName: string) => string;
    body: string;
    publicUrl: string;
  },
) {
  const [seller] = await tx.select({ email: users.email }).from(users).where(eq(users.id, listing.sellerId));
  const heading = listing.heading(listing.productName);
  await publishLiveEvent(tx, {
    to: listing.sellerId,
    type: 'listing.moderated',
    data: { productId: listing.id, productName: listing.productName, moderation: listing.moderation, reason: listing.reason },
  });
  if (!seller) return;
  await queueMail(tx, {
    to: seller.email,
    subject: heading,
    ...renderMail({ heading, paragraphs: [listing.body], action: { label: trustTexts.openMyProducts, path: webRoutes.dashboard.myProducts } }, listing.publicUrl),
  });
}
