import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { bookingSteps, type BookingStatus, type BookingStep, ledgerMessages, LISTING_LIFETIME_DAYS, type PlatformFee, type ReportProblemBody, type ListingState, type MeetingDetails, type PriceChange, type SaleSide, saleMessages, serverMessages } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, payments, products, saleProblems, users } from '../db/schema/index.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { closeOpenOffersOfProduct } from '../conversations/offer-expiry.ts';
import { platformFeeSql } from '../ledger/ledger.ts';
import { holdFunds, lockFunds, openProblem, refundFunds, releaseFunds } from './buyer-protection.ts';
import { cancelListingExpiry, scheduleListingExpiry } from '../products/listing-expiry.ts';
import { notifyBookingAnswered, notifyPaymentReceived, notifyWishersOfPriceDrop, publishSaleChange } from './sale-notifications.ts';

/**
 * The states of a booking and of a listing, and every way they change (decision 20). This is the
 * one place they change: each change locks the rows it reads (`SELECT ... FOR UPDATE`, the
 * product before its bookings, always in that order) in the caller's transaction, checks the
 * transition from what the rows say, and answers 409 with the reason when it is not allowed.
 */

interface BookingTransition {
  by: SaleSide;
  from: readonly BookingStatus[];
  to: BookingStatus;
  /** Why it is refused when the booking is in another state. */
  refusal: string;
}

/** The contract's steps (who takes each, from which statuses: the screens offer the same), with why each is refused. */
export const bookingTransitions = {
  accept: { ...bookingSteps.accept, refusal: saleMessages.acceptNotOpen },
  decline: { ...bookingSteps.decline, refusal: saleMessages.declineNotOpen },
  cancel: { ...bookingSteps.cancel, refusal: saleMessages.cancelNotOpen },
  handover: { ...bookingSteps.handover, refusal: saleMessages.handoverNotPaid },
  received: { ...bookingSteps.received, refusal: saleMessages.receivedNotPaid },
  refund: { ...bookingSteps.refund, refusal: saleMessages.refundNotPaid },
} as const satisfies Record<BookingStep, BookingTransition>;
export type BookingAction = keyof typeof bookingTransitions;

interface ListingTransition {
  from: readonly ListingState[];
  /** The state it ends in; `undefined` keeps the state (an edit). */
  to: ListingState | undefined;
  refusal: string;
}

export const listingTransitions = {
  edit: { from: ['available', 'reserved', 'expired', 'withdrawn'], to: undefined, refusal: saleMessages.editSold },
  renew: { from: ['available', 'expired', 'withdrawn'], to: 'available', refusal: saleMessages.renewNotPossible },
  withdraw: { from: ['available', 'expired'], to: 'withdrawn', refusal: saleMessages.withdrawNotPossible },
  'sold-elsewhere': {
    from: ['available', 'reserved', 'expired', 'withdrawn'],
    to: 'sold',
    refusal: saleMessages.soldElsewhereNotPossible,
  },
} as const satisfies Record<string, ListingTransition>;
export type ListingAction = keyof typeof listingTransitions;

/** Bookings still in play: a seller's answer, or the buyer's payment, is still to come. */
const liveBookingStatuses = ['open', 'accepted'] as const satisfies readonly BookingStatus[];

async function lockProductRow(tx: Executor, productId: string) {
  const [row] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  return row;
}

async function lockBookingRow(tx: Executor, bookingId: string) {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  return row;
}

/**
 * Locks a booking and its product, product first like every other change here, so that two
 * changes of the same sale queue instead of deadlocking.
 */
async function lockSale(tx: Executor, bookingId: string) {
  const [peek] = await tx.select({ productId: bookings.productId }).from(bookings).where(eq(bookings.id, bookingId));
  if (!peek) return undefined;
  const product = peek.productId ? await lockProductRow(tx, peek.productId) : undefined;
  const booking = await lockBookingRow(tx, bookingId);
  // The product was deleted between the two reads: the booking no longer belongs to a sale.
  if (!booking || booking.productId !== (product?.id ?? null)) return undefined;
  return { booking, product };
}

/**
 * Moves a listing to a state, keeping the specification's inStock in step with it. A piece that
 * leaves the market closes the price offers still open on it (decision 22).
 */
async function setListingState(tx: Executor, productId: string, state: ListingState) {
  await tx
    .update(products)
    .set({ state, inStock: state === 'available' ? 'available' : 'sold' })
    .where(eq(products.id, productId));
  if (state !== 'available') await closeOpenOffersOfProduct(tx, productId);
}

/** A listing back on the market gets a fresh 60 days (and its reminder). */
async function restartListingLife(tx: Executor, productId: string) {
  const expiresAt = new Date(Date.now() + LISTING_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
  await tx.update(products).set({ expiresAt }).where(eq(products.id, productId));
  await scheduleListingExpiry(tx, productId, expiresAt);
}

async function setBookingStatus(tx: Executor, bookingIds: string[], status: BookingStatus, reason: string | null) {
  if (bookingIds.length === 0) return;
  await tx
    .update(bookings)
    .set({ status, statusReason: reason, statusChangedAt: new Date(), ...(status === 'paid' ? { paymentStatus: 'paid' as const } : {}) })
    .where(inArray(bookings.id, bookingIds));
}

/**
 * Closes every booking of a product still in play, except one, with a reason for its buyer.
 * Answers the buyers told, for the live event.
 */
async function declineOtherBookings(tx: Executor, productId: string, exceptBookingId: string | null, reason: string) {
  const others = await tx
    .select({ id: bookings.id, buyerId: bookings.buyerId })
    .from(bookings)
    .where(
      and(
        eq(bookings.productId, productId),
        inArray(bookings.status, liveBookingStatuses),
        exceptBookingId ? ne(bookings.id, exceptBookingId) : undefined,
      ),
    )
    .for('update');
  await setBookingStatus(
    tx,
    others.map((other) => other.id),
    'declined',
    reason,
  );
  return others.map((other) => other.buyerId);
}

export interface BookingChangeRequest {
  bookingId: string;
  action: BookingAction;
  callerId: string;
  /** The seller's words to the buyer, for a decline. */
  reason?: string;
}

/**
 * Gives a payment back to its buyer through the card provider once the change that owes it has
 * committed; throws when the provider fails (the refund retry then makes it). Payments does this
 * and sells to a booking through this domain, so the app passes it in (app.ts).
 */
export type RefundPayment = (payment: typeof payments.$inferSelect) => Promise<unknown>;

export interface BookingChange {
  bookingId: string;
  productName: string;
  /** For a refund: the payment now owed back, to refund through the provider once this commits. */
  paymentToRefund?: typeof payments.$inferSelect;
}

/**
 * A buyer's or seller's step in a sale (accept, decline, cancel, handover, received, refund).
 * Someone who is not the booking's buyer (buyer steps) or its product's seller (seller steps) is
 * told there is no such booking, so ids reveal nothing.
 */
export async function changeBooking(tx: Executor, request: BookingChangeRequest): Promise<BookingChange> {
  const transition: BookingTransition = bookingTransitions[request.action];
  const sale = await lockSale(tx, request.bookingId);
  const party = transition.by === 'buyer' ? sale?.booking.buyerId : sale?.product?.sellerId;
  if (!sale || party !== request.callerId) throw notFound(saleMessages.bookingNotFound);
  const { booking, product } = sale;
  if (!transition.from.includes(booking.status)) throw conflict(transition.refusal);

  const told = new Set([booking.buyerId, ...(product ? [product.sellerId] : [])]);
  const reason =
    request.action === 'decline'
      ? (request.reason ?? null)
      : request.action === 'cancel'
        ? saleMessages.reasons.cancelledByBuyer
        : request.action === 'refund'
          ? saleMessages.reasons.refunded
          : null;
  let paymentToRefund: BookingChange['paymentToRefund'];

  if (request.action === 'accept') {
    if (product?.state !== 'available') throw conflict(saleMessages.acceptNotAvailable);
    await setListingState(tx, product.id, 'reserved');
    for (const buyerId of await declineOtherBookings(tx, product.id, booking.id, saleMessages.reasons.wentToAnotherBuyer)) told.add(buyerId);
  }
  // An accepted booking that ends unpaid frees the piece it reserved.
  if ((request.action === 'decline' || request.action === 'cancel') && booking.status === 'accepted' && product?.state === 'reserved') {
    await setListingState(tx, product.id, 'available');
    await restartListingLife(tx, product.id);
  }
  // A reported problem froze the money: the admin's decision, not a handover, settles the sale.
  if (request.action === 'handover' && (await lockFunds(tx, booking.id))?.state === 'frozen') throw conflict(ledgerMessages.handoverFrozen);
  if (request.action === 'refund') paymentToRefund = await refundPaidSale(tx, booking, product);
  if (request.action === 'received') {
    // The buyer's word releases money still held; a sale paid before buyer protection has none.
    const funds = await lockFunds(tx, booking.id);
    if (funds ? funds.state !== 'held' : booking.status === 'closed') throw conflict(ledgerMessages.receivedNotHeld);
    if (funds) await releaseFunds(tx, funds, booking.productName, ['held']);
  }

  await setBookingStatus(tx, [booking.id], transition.to, reason);
  await publishSaleChange(tx, [...told], { bookingId: booking.id, productId: product?.id ?? null, status: transition.to });
  if (request.action === 'accept' || request.action === 'decline') {
    await notifyBookingAnswered(tx, booking.buyerId, booking, request.action === 'accept' ? 'accepted' : 'declined');
  }
  return { bookingId: booking.id, productName: booking.productName, ...(paymentToRefund ? { paymentToRefund } : {}) };
}

/**
 * Gives a paid sale's money back: the payment is owed back from now on (the provider is called
 * after this commits, and the refund retry, decision 7, makes the refund if that call fails), the
 * held or released money leaves the seller's side of the ledger, and a piece not yet handed over is
 * on the market again. Answers the payment to refund.
 */
async function refundPaidSale(
  tx: Executor,
  booking: typeof bookings.$inferSelect,
  product: typeof products.$inferSelect | undefined,
): Promise<typeof payments.$inferSelect> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, booking.id), eq(payments.status, 'succeeded')))
    .for('update');
  if (!payment) throw conflict(saleMessages.refundNotPaid);
  const [owed] = await tx.update(payments).set({ status: 'refund_pending' }).where(eq(payments.id, payment.id)).returning();
  await tx.update(bookings).set({ paymentStatus: 'unpaid' }).where(eq(bookings.id, booking.id));
  await refundFunds(tx, booking.id, booking.productName);
  if (booking.status === 'paid' && product?.state === 'sold') {
    await setListingState(tx, product.id, 'available');
    await restartListingLife(tx, product.id);
  }
  return owed!;
}

/** The buyer's "Something is wrong" on a paid sale (decision 33). Answers the report's id. */
export async function reportProblem(tx: Executor, request: { bookingId: string; callerId: string; report: ReportProblemBody }): Promise<string> {
  const sale = await lockSale(tx, request.bookingId);
  if (!sale || sale.booking.buyerId !== request.callerId) throw notFound(saleMessages.bookingNotFound);
  if (sale.booking.status !== 'paid' && sale.booking.status !== 'closed') throw conflict(ledgerMessages.problemNotPossible);
  const problemId = await openProblem(tx, sale.booking.id, request.report);
  const told = [sale.booking.buyerId, ...(sale.product ? [sale.product.sellerId] : [])];
  await publishSaleChange(tx, told, { bookingId: sale.booking.id, productId: sale.product?.id ?? null, status: sale.booking.status });
  return problemId;
}

/**
 * An admin's decision on a reported problem: the money goes to the seller, or back to the buyer
 * (the sale is then cancelled). The caller records the act in the audit log.
 */
export async function resolveProblem(
  tx: Executor,
  problemId: string,
  decision: 'release' | 'refund',
): Promise<BookingChange> {
  const [problem] = await tx.select().from(saleProblems).where(eq(saleProblems.id, problemId));
  const sale = problem && !problem.resolvedAt ? await lockSale(tx, problem.bookingId) : undefined;
  const funds = sale ? await lockFunds(tx, sale.booking.id) : undefined;
  // Read again under the sale's locks: another admin may have decided meanwhile.
  const [open] = funds ? await tx.select().from(saleProblems).where(eq(saleProblems.id, problemId)).for('update') : [];
  if (!sale || !funds || !open || open.resolvedAt) throw notFound(ledgerMessages.problemNotFound);
  const { booking, product } = sale;
  const told = [booking.buyerId, ...(product ? [product.sellerId] : [])];
  if (decision === 'release') {
    await releaseFunds(tx, funds, booking.productName, ['frozen']);
    await tx.update(saleProblems).set({ resolvedAt: new Date(), resolution: 'released' }).where(eq(saleProblems.id, problemId));
    await publishSaleChange(tx, told, { bookingId: booking.id, productId: product?.id ?? null, status: booking.status });
    return { bookingId: booking.id, productName: booking.productName };
  }
  const paymentToRefund = await refundPaidSale(tx, booking, product);
  await setBookingStatus(tx, [booking.id], 'cancelled', saleMessages.reasons.refunded);
  await publishSaleChange(tx, told, { bookingId: booking.id, productId: product?.id ?? null, status: 'cancelled' });
  return { bookingId: booking.id, productName: booking.productName, paymentToRefund };
}

/**
 * Why a booking cannot be paid right now, or undefined when it can: an open booking of an
 * available piece, or the booking the seller accepted. Checked before a card is charged; the sale
 * itself (`sellToBooking`) checks again under the locks.
 */
export function paymentRefusal(
  booking: { id: string; status: BookingStatus },
  product: { state: ListingState } | undefined,
): string | undefined {
  if (booking.status !== 'open' && booking.status !== 'accepted') return saleMessages.payNotPossible[booking.status];
  if (!product) return saleMessages.payNotPossible.notAvailable;
  if (booking.status === 'open' && product.state === 'available') return undefined;
  if (booking.status === 'accepted' && product.state === 'reserved') return undefined;
  return product.state === 'reserved' ? saleMessages.payNotPossible.reservedForAnother : saleMessages.payNotPossible.notAvailable;
}

/**
 * The sale: a succeeded payment of the booking's agreed price makes its booking paid and its
 * product sold, and every other booking still in play is told the piece went to another buyer.
 * Only one payment can win a product: the second finds it sold under the lock. A payment of
 * another amount (made before the booking's price changed) makes no sale. Answers whether this
 * call made the sale.
 */
export async function sellToBooking(tx: Executor, bookingId: string, amountCents: number): Promise<boolean> {
  const sale = await lockSale(tx, bookingId);
  if (!sale?.product || paymentRefusal(sale.booking, sale.product)) return false;
  if (sale.booking.agreedPriceCents !== amountCents) return false;
  const { booking, product } = sale;
  await setListingState(tx, product.id, 'sold');
  await cancelListingExpiry(tx, product.id);
  await setBookingStatus(tx, [booking.id], 'paid', null);
  await holdFunds(tx, {
    bookingId,
    sellerId: product.sellerId,
    productName: booking.productName,
    amountCents,
    feeCents: booking.feeCents,
  });
  const told = await declineOtherBookings(tx, product.id, booking.id, saleMessages.reasons.soldToAnotherBuyer);
  await publishSaleChange(tx, [booking.buyerId, product.sellerId, ...told], { bookingId, productId: product.id, status: 'paid' });
  await notifyPaymentReceived(tx, product.sellerId, { ...booking, amount: (amountCents / 100).toFixed(2) });
  return true;
}

/**
 * Releases what an unpaid booking held before its buyer deletes it: an accepted booking's
 * reservation. Answers false when the booking is paid (a purchase record is never deleted).
 */
export async function releaseBookingForDeletion(tx: Executor, bookingId: string, buyerId: string): Promise<boolean> {
  const sale = await lockSale(tx, bookingId);
  if (!sale || sale.booking.buyerId !== buyerId) throw notFound(saleMessages.bookingNotFound);
  if (sale.booking.status === 'paid' || sale.booking.status === 'closed') return false;
  if (sale.booking.status === 'accepted' && sale.product?.state === 'reserved') {
    await setListingState(tx, sale.product.id, 'available');
    await restartListingLife(tx, sale.product.id);
    await publishSaleChange(tx, [sale.product.sellerId], { bookingId, productId: sale.product.id, status: 'cancelled' });
  }
  return true;
}

/**
 * A price agreed in a conversation (an accepted offer, decision 22): the buyer's booking of the
 * piece is made, or kept, at that price, and accepted by the seller, which reserves the piece for
 * this buyer. Its phone number and meeting place are the ones the buyer gave with the offer;
 * without them, a new booking takes the phone of the buyer's settings and the listing's town, and
 * a booking the buyer had made keeps its own. Answers the booking's id.
 */
export async function bookAtAgreedPrice(
  tx: Executor,
  agreement: { productId: string; buyerId: string; price: string; fee: PlatformFee; details: MeetingDetails },
): Promise<string> {
  const { phoneNumber, location } = agreement.details;
  const feeCents = platformFeeSql(sql`${agreement.price}::numeric`, agreement.fee);
  const product = await lockProductRow(tx, agreement.productId);
  if (!product) throw notFound(saleMessages.productNotFound);
  const [existing] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.productId, product.id), eq(bookings.buyerId, agreement.buyerId)))
    .for('update');
  const reservedForThisBuyer = product.state === 'reserved' && existing?.status === 'accepted';
  if (product.state !== 'available' && !reservedForThisBuyer) throw conflict(saleMessages.acceptNotAvailable);
  if (existing?.status === 'paid' || existing?.status === 'closed') throw conflict(saleMessages.payNotPossible[existing.status]);

  let bookingId = existing?.id;
  if (existing) {
    await tx
      .update(bookings)
      .set({
        productPrice: agreement.price,
        feeCents,
        ...(phoneNumber ? { phoneNumber } : {}),
        ...(location ? { location } : {}),
        ...(reservedForThisBuyer ? {} : { status: 'open' as const, statusReason: null }),
      })
      .where(eq(bookings.id, existing.id));
  } else {
    const [buyer] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, agreement.buyerId));
    const [created] = await tx
      .insert(bookings)
      .values({
        buyerId: agreement.buyerId,
        productId: product.id,
        productName: product.productName,
        productImage: product.productImage,
        productPrice: agreement.price,
        feeCents,
        phoneNumber: phoneNumber ?? buyer?.phone ?? '',
        location: location ?? product.location,
      })
      .returning({ id: bookings.id });
    bookingId = created!.id;
  }
  if (!reservedForThisBuyer) await changeBooking(tx, { bookingId: bookingId!, action: 'accept', callerId: product.sellerId });
  return bookingId!;
}

export type ListingEdit = Partial<
  Pick<
    typeof products.$inferInsert,
    | 'categoryId'
    | 'condition'
    | 'productName'
    | 'yearsOfUsedProduct'
    | 'originalPrice'
    | 'resalePrice'
    | 'description'
    | 'phone'
    | 'location'
    | 'productImage'
    | 'photos'
    | 'widthCm'
    | 'depthCm'
    | 'heightCm'
  >
>;

export interface ListingChangeRequest {
  productId: string;
  action: ListingAction;
  sellerId: string;
  /** For an edit: the fields that change. */
  edit?: ListingEdit;
}

/**
 * A seller's change of their listing: edit, renew (or relist), withdraw, sold elsewhere. An edit
 * or renewal restarts the listing's 60 days. A price drop is added to the price history and
 * announced to the people who wished for the piece.
 */
export async function changeListing(tx: Executor, request: ListingChangeRequest): Promise<{ productName: string }> {
  const transition: ListingTransition = listingTransitions[request.action];
  const product = await lockProductRow(tx, request.productId);
  if (!product) throw notFound(saleMessages.productNotFound);
  if (product.sellerId !== request.sellerId) throw forbidden(serverMessages.products.onlyOwnChange);
  if (!transition.from.includes(product.state)) throw conflict(transition.refusal);
  const sellerId = product.sellerId;

  if (request.action === 'edit' && request.edit) {
    const edit = request.edit;
    const priceHistory = priceHistoryAfter(product, edit.resalePrice);
    await tx
      .update(products)
      .set({ ...edit, priceHistory, editedAt: new Date() })
      .where(eq(products.id, product.id));
    const newPrice = edit.resalePrice === undefined ? undefined : Number(edit.resalePrice);
    if (newPrice !== undefined && newPrice < Number(product.resalePrice)) {
      await notifyWishersOfPriceDrop(tx, {
        productId: product.id,
        productName: edit.productName ?? product.productName,
        oldPrice: Number(product.resalePrice),
        newPrice,
      });
    }
  }
  if (transition.to === 'withdrawn' || transition.to === 'sold') {
    const reason = transition.to === 'sold' ? saleMessages.reasons.soldElsewhere : saleMessages.reasons.withdrawn;
    const told = await declineOtherBookings(tx, product.id, null, reason);
    await setListingState(tx, product.id, transition.to);
    await cancelListingExpiry(tx, product.id);
    await publishSaleChange(tx, [sellerId, ...told], { bookingId: null, productId: product.id, status: null });
  } else if (product.state === 'available' || transition.to === 'available') {
    if (transition.to) await setListingState(tx, product.id, transition.to);
    if (request.action === 'renew') await tx.update(products).set({ renewedAt: new Date() }).where(eq(products.id, product.id));
    await restartListingLife(tx, product.id);
  }
  return { productName: request.edit?.productName ?? product.productName };
}

/** The price history after a change of asking price: the listed price first, then each change. */
function priceHistoryAfter(product: typeof products.$inferSelect, newPrice: string | undefined): PriceChange[] {
  if (newPrice === undefined || Number(newPrice) === Number(product.resalePrice)) return product.priceHistory;
  const history =
    product.priceHistory.length > 0
      ? product.priceHistory
      : [{ price: Number(product.resalePrice), changedAt: product.postedAt.toISOString() }];
  return [...history, { price: Number(newPrice), changedAt: new Date().toISOString() }];
}

/**
 * The expiry job's change: an available listing whose expiry is still the one the job was
 * scheduled for becomes expired. Answers whether it did.
 */
export async function expireListing(tx: Executor, productId: string, expiresAt: string): Promise<boolean> {
  const [expired] = await tx
    .update(products)
    .set({ state: 'expired', inStock: 'sold' })
    .where(
      and(
        eq(products.id, productId),
        eq(products.state, 'available'),
        sql`date_trunc('milliseconds', ${products.expiresAt}) = date_trunc('milliseconds', ${expiresAt}::timestamptz)`,
      ),
    )
    .returning({ sellerId: products.sellerId });
  if (!expired) return false;
  await closeOpenOffersOfProduct(tx, productId);
  await publishSaleChange(tx, [expired.sellerId], { bookingId: null, productId, status: null });
  return true;
}
