import { and, eq, sql } from 'drizzle-orm';
import { conversationMessages, OFFER_LIFETIME_HOURS, type MeetingDetails, type Offer, type PlatformFee } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { conversations, offers, products } from '../db/schema/index.ts';
import { conflict, notFound } from '../http/errors.ts';
import { cancelJob, enqueueJob } from '../jobs/job-queue.ts';
import { takesOffers, touchConversation, toOffer, type ConversationRow } from './conversation-repository.ts';
import { expireOfferTask, expiryKey } from './offer-expiry.ts';

/**
 * Offers (decision 22): a buyer proposes a price below the asking price, the other side accepts,
 * declines or counters (a counter-offer is a new open offer from the one who answered). At most one
 * offer is open per conversation. Every change locks the product first, then the offer, in the
 * caller's transaction, like the sale's own changes, so two answers to one offer queue and the
 * second finds it answered.
 */

const OFFER_LIFETIME_MS = OFFER_LIFETIME_HOURS * 60 * 60 * 1000;

async function lockAvailableProduct(tx: Executor, productId: string) {
  const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  if (!product || !takesOffers(product)) throw conflict(conversationMessages.offerNotAvailable);
  return product;
}

function requireBelowAsking(amount: number, askingPrice: string) {
  if (amount >= Number(askingPrice)) throw conflict(conversationMessages.offerAboveAsking);
}

async function insertOffer(tx: Executor, thread: ConversationRow, senderId: string, amount: number, details: MeetingDetails = {}): Promise<Offer> {
  const expiresAt = new Date(Date.now() + OFFER_LIFETIME_MS);
  // Only a buyer's offer carries their meeting details; a seller's counter-offer has none to give.
  const buyersDetails = senderId === thread.buyerId ? { phoneNumber: details.phoneNumber, meetingPlace: details.location } : {};
  const [row] = await tx
    .insert(offers)
    .values({ conversationId: thread.id, senderId, amount: amount.toFixed(2), expiresAt, ...buyersDetails })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(conversationMessages.offerAlreadyOpen);
  await enqueueJob(tx, expireOfferTask, { offerId: row.id }, { runAt: expiresAt, key: expiryKey(row.id) });
  await touchConversation(tx, thread.id, row.createdAt);
  return toOffer(row, thread.productId);
}

/**
 * The buyer's offer in their thread (only buyers make offers), with their meeting details for the
 * booking it makes if accepted. Open offers past their time are closed first.
 */
export async function makeOffer(tx: Executor, thread: ConversationRow, buyerId: string, amount: number, details: MeetingDetails = {}): Promise<Offer> {
  const product = await lockAvailableProduct(tx, thread.productId);
  requireBelowAsking(amount, product.resalePrice);
  await tx
    .update(offers)
    .set({ status: 'expired', answeredAt: sql`now()` })
    .where(and(eq(offers.conversationId, thread.id), eq(offers.status, 'open'), sql`${offers.expiresAt} <= now()`));
  return insertOffer(tx, thread, buyerId, amount, details);
}

export type OfferAnswer = 'accept' | 'decline' | 'counter';

/**
 * Books the piece for the buyer at the agreed price, reserving it, and answers the booking's id.
 * Bookings are the sales domain's, which closes offers through this one, so the app passes its
 * step in (app.ts).
 */
export type BookAtAgreedPrice = (
  tx: Executor,
  agreement: { productId: string; buyerId: string; price: string; fee: PlatformFee; details: MeetingDetails },
) => Promise<string>;

export interface AnsweredOffer {
  thread: ConversationRow;
  offer: Offer;
  /** The counter-offer made by answering, if any. */
  counter?: Offer;
  /** The buyer's booking at the agreed price, for an accepted offer. */
  bookingId?: string;
}

/**
 * The other side's answer to an open offer. Only the participant who did not make the offer can
 * answer it; anyone else is told there is no such offer. `details`: the buyer's meeting details,
 * when the buyer answers (accepting or countering the seller's offer).
 */
export async function answerOffer(
  tx: Executor,
  request: { offerId: string; callerId: string; answer: OfferAnswer; amount?: number; details?: MeetingDetails; fee: PlatformFee },
  bookAtAgreedPrice: BookAtAgreedPrice,
): Promise<AnsweredOffer> {
  const [peek] = await tx
    .select({ thread: conversations })
    .from(offers)
    .innerJoin(conversations, eq(conversations.id, offers.conversationId))
    .where(eq(offers.id, request.offerId));
  const thread = peek?.thread;
  const isParticipant = thread && (thread.buyerId === request.callerId || thread.sellerId === request.callerId);
  if (!thread || !isParticipant) throw notFound(conversationMessages.offerNotFound);

  const [product] = await tx.select().from(products).where(eq(products.id, thread.productId)).for('update');
  const [row] = await tx.select().from(offers).where(eq(offers.id, request.offerId)).for('update');
  if (!row || row.senderId === request.callerId) throw notFound(conversationMessages.offerNotFound);
  if (row.status !== 'open') throw conflict(conversationMessages.offerNotOpen[row.status]);
  if (row.expiresAt.getTime() <= Date.now()) throw conflict(conversationMessages.offerNotOpen.expired);

  const status = { accept: 'accepted', decline: 'declined', counter: 'countered' } as const;
  let bookingId: string | undefined;
  let counter: Offer | undefined;
  if (request.answer === 'counter') {
    if (!product || !takesOffers(product)) throw conflict(conversationMessages.offerNotAvailable);
    requireBelowAsking(request.amount!, product.resalePrice);
  }
  const [answered] = await tx
    .update(offers)
    .set({ status: status[request.answer], answeredAt: sql`now()` })
    .where(eq(offers.id, row.id))
    .returning();
  await cancelJob(tx, expiryKey(row.id));
  // Booking reserves the piece, which closes the offers still open on it: this one is answered first.
  if (request.answer === 'accept') {
    // The seller accepts the buyer's offer, which carries the buyer's details; the buyer accepting sends them.
    const details = row.senderId === thread.buyerId ? { phoneNumber: row.phoneNumber ?? undefined, location: row.meetingPlace ?? undefined } : (request.details ?? {});
    bookingId = await bookAtAgreedPrice(tx, { productId: thread.productId, buyerId: thread.buyerId, price: row.amount, fee: request.fee, details });
  }
  if (request.answer === 'counter') counter = await insertOffer(tx, thread, request.callerId, request.amount!, request.details);
  else await touchConversation(tx, thread.id, new Date());
  return { thread, offer: toOffer(answered!, thread.productId), ...(counter ? { counter } : {}), ...(bookingId ? { bookingId } : {}) };
}
