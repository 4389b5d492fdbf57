import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { notificationTexts } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { conversations, offers } from '../db/schema/index.ts';
import { publishLiveEvent } from '../events/live-events.ts';
import { cancelJob, defineTask } from '../jobs/job-queue.ts';
import { notify, usd } from '../notifications/notify.ts';
import { pieceOf, threadLink, toOffer, type ConversationRow, type OfferRow } from './conversation-repository.ts';

/**
 * How offers end without an answer: each has an expiry job in the job queue under its own key
 * (decision 16), and the sale closes the open offers of a piece that left the market.
 */

export const expireOfferTask = defineTask<{ offerId: string }>('conversations.expire-offer');
export const expiryKey = (offerId: string) => `offer-expiry:${offerId}`;

/** The expiry job: an offer still open when its time is up expires. Answers it, if it did. */
export async function expireOffer(tx: Executor, offerId: string): Promise<{ offer: OfferRow; thread: ConversationRow } | undefined> {
  const [expired] = await tx
    .update(offers)
    .set({ status: 'expired', answeredAt: sql`now()` })
    .where(and(eq(offers.id, offerId), eq(offers.status, 'open')))
    .returning();
  if (!expired) return undefined;
  const [thread] = await tx.select().from(conversations).where(eq(conversations.id, expired.conversationId));
  return { offer: expired, thread: thread! };
}

/**
 * A piece that left the market (reserved, sold, withdrawn, expired) or that an admin took out of
 * it (hidden, removed, its seller suspended; decision 23) closes the offers still open on it, and
 * both people of each thread are told: the thread updates live, and each gets a notification.
 */
export async function closeOpenOffersOfProduct(tx: Executor, productId: string): Promise<void> {
  await closeOpenOffersWhere(tx, eq(conversations.productId, productId));
}

/** A person who deletes their account closes the offers still open in their threads, on either side (decision 44). */
export async function closeOpenOffersOfPerson(tx: Executor, userId: string): Promise<void> {
  await closeOpenOffersWhere(tx, or(eq(conversations.buyerId, userId), eq(conversations.sellerId, userId))!);
}

async function closeOpenOffersWhere(tx: Executor, threads: SQL): Promise<void> {
  const closed = await tx
    .update(offers)
    .set({ status: 'declined', answeredAt: sql`now()` })
    .from(conversations)
    .where(and(eq(offers.conversationId, conversations.id), threads, eq(offers.status, 'open')))
    .returning({ offer: offers, thread: conversations });
  for (const { offer, thread } of closed) {
    const piece = await pieceOf(tx, thread);
    await cancelJob(tx, expiryKey(offer.id));
    const people = [thread.buyerId, thread.sellerId];
    await publishLiveEvent(tx, { to: people, type: 'offer.changed', data: { conversationId: thread.id, offer: toOffer(offer, thread.productId) } });
    await notify(tx, {
      to: people,
      kind: 'offer-answered',
      text: notificationTexts.offerClosed(usd(offer.amount), piece.productName),
      link: threadLink(thread),
      image: piece.productImage,
    });
  }
}
