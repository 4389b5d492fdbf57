import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { conversations, offers } from '../db/schema/index.ts';
import { cancelJob, defineTask } from '../jobs/job-queue.ts';
import type { ConversationRow, OfferRow } from './conversation-repository.ts';

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
 * A piece that left the market (sold, withdrawn) closes the offers still open on it; answers the
 * people in those threads, to tell them.
 */
export async function closeOpenOffersOfProduct(tx: Executor, productId: string): Promise<string[]> {
  const closed = await tx
    .update(offers)
    .set({ status: 'declined', answeredAt: sql`now()` })
    .from(conversations)
    .where(and(eq(offers.conversationId, conversations.id), eq(conversations.productId, productId), eq(offers.status, 'open')))
    .returning({ id: offers.id, buyerId: conversations.buyerId, sellerId: conversations.sellerId });
  for (const offer of closed) await cancelJob(tx, expiryKey(offer.id));
  return [...new Set(closed.flatMap((offer) => [offer.buyerId, offer.sellerId]))];
}

/** The price the buyer and seller agreed for the product, from the latest accepted offer; undefined without one. */
export async function agreedPriceOf(db: Executor, productId: string, buyerId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ amount: offers.amount })
    .from(offers)
    .innerJoin(conversations, eq(conversations.id, offers.conversationId))
    .where(and(eq(conversations.productId, productId), eq(conversations.buyerId, buyerId), eq(offers.status, 'accepted')))
    .orderBy(desc(offers.answeredAt))
    .limit(1);
  return row?.amount;
}
