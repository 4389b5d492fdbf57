import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { trustTexts, webRoutes, type ChatMessage, type Conversation, type Offer } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, chatMessages, conversations, offers, products, users } from '../db/schema/index.ts';
import { publiclyVisible } from '../products/product-repository.ts';

export type ConversationRow = typeof conversations.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;

/** Which side of a thread a person is on, or undefined for anyone else (admins included). */
export function sideOf(thread: Pick<ConversationRow, 'buyerId' | 'sellerId'>, userId: string): 'buyer' | 'seller' | undefined {
  if (thread.buyerId === userId) return 'buyer';
  if (thread.sellerId === userId) return 'seller';
  return undefined;
}

export const otherParticipant = (thread: Pick<ConversationRow, 'buyerId' | 'sellerId'>, userId: string) =>
  thread.buyerId === userId ? thread.sellerId : thread.buyerId;

/** The thread, if the person takes part in it; anyone else learns nothing of it. */
export async function findConversationOf(db: Executor, id: string, userId: string): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), or(eq(conversations.buyerId, userId), eq(conversations.sellerId, userId))));
  return row;
}

/** A product people can talk about: one the catalogue shows. */
export async function findProductForConversation(db: Executor, productId: string) {
  const [row] = await db
    .select({ id: products.id, sellerId: products.sellerId })
    .from(products)
    .where(and(eq(products.id, productId), publiclyVisible));
  return row;
}

/** A booking of one of this seller's products: who booked which piece. Anyone else's booking is none. */
export async function findBookingOfSeller(db: Executor, bookingId: string, sellerId: string) {
  const [row] = await db
    .select({ productId: products.id, buyerId: bookings.buyerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(and(eq(bookings.id, bookingId), eq(products.sellerId, sellerId)));
  return row;
}

/** Where a thread's notifications lead: the thread on the Messages screen. */
export const threadLink = (thread: Pick<ConversationRow, 'id'>) => `${webRoutes.dashboard.messages}?thread=${thread.id}`;

/** The name and photo of a thread's product, for what people are told. */
export async function pieceOf(db: Executor, thread: Pick<ConversationRow, 'productId'>) {
  const [row] = await db
    .select({ productName: products.productName, productImage: products.productImage })
    .from(products)
    .where(eq(products.id, thread.productId));
  return row!;
}

/** The buyer's thread about a product, made when there is none yet; answers it and whether it is new. */
export async function openConversation(db: Executor, refs: { productId: string; buyerId: string; sellerId: string }) {
  const [created] = await db.insert(conversations).values(refs).onConflictDoNothing().returning();
  if (created) return { thread: created, created: true };
  const [existing] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.productId, refs.productId), eq(conversations.buyerId, refs.buyerId)));
  return { thread: existing!, created: false };
}

/** A message as its participants read it: once an admin removed it, both read the removal notice instead. */
export function toChatMessage(row: typeof chatMessages.$inferSelect): ChatMessage {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    senderId: row.senderId,
    text: row.removedAt ? trustTexts.messageRemovedByModeration : row.text,
    createdAt: row.createdAt.toISOString(),
    removed: row.removedAt !== null,
  };
}

/**
 * Whether offers can be made and answered on a piece: it is for sale (not booked or sold), and an
 * admin has not taken it out of the market (decision 23), which keeps its sale state.
 */
export const takesOffers = (product: Pick<typeof products.$inferSelect, 'state' | 'moderation'>) =>
  product.state === 'available' && !product.moderation;

export function toOffer(row: OfferRow, productId: string): Offer {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    productId,
    senderId: row.senderId,
    amount: Number(row.amount),
    // An open offer past its time reads as expired even before the job has marked it.
    status: row.status === 'open' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function insertMessage(db: Executor, conversationId: string, senderId: string, text: string): Promise<ChatMessage> {
  const [row] = await db.insert(chatMessages).values({ conversationId, senderId, text }).returning();
  await touchConversation(db, conversationId, row!.createdAt);
  return toChatMessage(row!);
}

/** New activity in a thread: it moves to the top of both lists. */
export async function touchConversation(db: Executor, conversationId: string, at: Date) {
  await db
    .update(conversations)
    .set({ lastActivityAt: sql`greatest(${conversations.lastActivityAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(conversations.id, conversationId));
}

/** A page of a thread's messages, newest first, older than the `before` message when given. */
export async function listMessages(db: Executor, conversationId: string, before: string | undefined, limit: number) {
  let olderThan;
  if (before) {
    const [anchor] = await db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.id, before), eq(chatMessages.conversationId, conversationId)));
    if (!anchor) return undefined;
    // Compared in SQL, row against row: a JavaScript Date would drop the timestamps' microseconds
    // and skip the messages of the anchor's own millisecond.
    olderThan = sql`(${chatMessages.createdAt}, ${chatMessages.id}) < (select ${chatMessages.createdAt}, ${chatMessages.id} from ${chatMessages} where ${chatMessages.id} = ${anchor.id})`;
  }
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId), olderThan))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map(toChatMessage);
  return { data: page, nextBefore: rows.length > limit ? page[page.length - 1]!._id : null };
}

/** Marks everything in the thread read by this participant, up to now; answers when. */
export async function markRead(db: Executor, thread: ConversationRow, userId: string): Promise<Date> {
  const column = sideOf(thread, userId) === 'buyer' ? 'buyerReadAt' : 'sellerReadAt';
  const [row] = await db
    .update(conversations)
    .set({ [column]: sql`now()` })
    .where(eq(conversations.id, thread.id))
    .returning({ readAt: conversations[column] });
  return row!.readAt!;
}

const buyer = alias(users, 'buyer');
const seller = alias(users, 'seller');

/** The person's threads, newest activity first, with unread counts and the offers made in each. */
export async function listConversationsOf(db: Executor, userId: string, limit: number, offset: number): Promise<Conversation[]> {
  const myReadAt = sql`case when ${conversations.buyerId} = ${userId} then ${conversations.buyerReadAt} else ${conversations.sellerReadAt} end`;
  const rows = await db
    .select({
      thread: conversations,
      productName: products.productName,
      productImage: products.productImage,
      askingPrice: products.resalePrice,
      productState: products.state,
      productModeration: products.moderation,
      buyerName: buyer.name,
      sellerName: seller.name,
      payableBookingId: sql<string | null>`(select ${bookings.id} from ${bookings}
        where ${bookings.productId} = ${conversations.productId} and ${bookings.buyerId} = ${conversations.buyerId}
        and ${conversations.buyerId} = ${userId} and ${bookings.status} = 'accepted')`,
      unread: sql<number>`(select count(*) from ${chatMessages}
        where ${chatMessages.conversationId} = ${conversations.id} and ${chatMessages.senderId} <> ${userId}
        and (${myReadAt} is null or ${chatMessages.createdAt} > ${myReadAt}))`.mapWith(Number),
    })
    .from(conversations)
    .innerJoin(products, eq(products.id, conversations.productId))
    .innerJoin(buyer, eq(buyer.id, conversations.buyerId))
    .innerJoin(seller, eq(seller.id, conversations.sellerId))
    .where(or(eq(conversations.buyerId, userId), eq(conversations.sellerId, userId)))
    .orderBy(desc(conversations.lastActivityAt), desc(conversations.id))
    .limit(limit)
    .offset(offset);
  const ids = rows.map((row) => row.thread.id);
  const offerRows = ids.length
    ? await db.select().from(offers).where(inArray(offers.conversationId, ids)).orderBy(desc(offers.createdAt))
    : [];
  return rows.map(({ thread, ...row }) => {
    const otherReadAt = thread.buyerId === userId ? thread.sellerReadAt : thread.buyerReadAt;
    return {
      _id: thread.id,
      productId: thread.productId,
      productName: row.productName,
      productImage: row.productImage,
      askingPrice: Number(row.askingPrice),
      takesOffers: takesOffers({ state: row.productState, moderation: row.productModeration }),
      payableBookingId: row.payableBookingId,
      buyerId: thread.buyerId,
      buyerName: row.buyerName,
      sellerId: thread.sellerId,
      sellerName: row.sellerName,
      lastMessageAt: thread.lastActivityAt.toISOString(),
      unread: row.unread,
      otherReadAt: otherReadAt?.toISOString() ?? null,
      offers: offerRows.filter((offer) => offer.conversationId === thread.id).map((offer) => toOffer(offer, thread.productId)),
    };
  });
}
