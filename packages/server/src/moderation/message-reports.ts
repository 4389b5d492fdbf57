import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REPORT_CONTEXT_MESSAGES, type ModeratedMessage, type ReportContext, type ReportedMessage } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { chatMessages, conversations, products, users } from '../db/schema/index.ts';
import { publishLiveEvent } from '../events/live-events.ts';

/**
 * Reports of messages (decision 23). Threads stay private to their two participants; the one
 * exception is an admin reading a reported message and the thread around it through the
 * moderation queue, and every such read is written to the audit log by the route that answers it.
 */

/**
 * A message the reporter may report: one of a thread they take part in. Answers undefined for
 * anyone else, so a message id reveals nothing (the thread privacy rule of decision 22).
 */
export async function findReportableMessage(db: Executor, messageId: string, reporterId: string) {
  const [row] = await db
    .select({ senderId: chatMessages.senderId, removedAt: chatMessages.removedAt })
    .from(chatMessages)
    .innerJoin(conversations, eq(conversations.id, chatMessages.conversationId))
    .where(and(eq(chatMessages.id, messageId), or(eq(conversations.buyerId, reporterId), eq(conversations.sellerId, reporterId))));
  return row;
}

/** Who wrote a message, for suspending its author; undefined once it is gone. */
export async function authorOfMessage(db: Executor, messageId: string): Promise<string | undefined> {
  const [row] = await db.select({ senderId: chatMessages.senderId }).from(chatMessages).where(eq(chatMessages.id, messageId));
  return row?.senderId;
}

const sender = alias(users, 'sender');

const moderatedColumns = {
  id: chatMessages.id,
  senderId: chatMessages.senderId,
  senderName: sender.name,
  text: chatMessages.text,
  createdAt: chatMessages.createdAt,
  removedAt: chatMessages.removedAt,
};

type ModeratedRow = { id: string; senderName: string; createdAt: Date; removedAt: Date | null } & Pick<ModeratedMessage, 'senderId' | 'text'>;

/** What an admin reads: the text as written, and whether and when it was removed. */
const toModeratedMessage = (row: ModeratedRow): ModeratedMessage => ({
  _id: row.id,
  senderId: row.senderId,
  senderName: row.senderName,
  text: row.text,
  createdAt: row.createdAt.toISOString(),
  removedAt: row.removedAt?.toISOString() ?? null,
});

/** The reported messages among these ids, with their authors (e-mail too, to suspend) and threads' products. */
export async function reportedMessagesAmong(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...moderatedColumns, senderEmail: sender.email, senderSuspendedAt: sender.suspendedAt, conversationId: conversations.id, productId: products.id, productName: products.productName })
    .from(chatMessages)
    .innerJoin(sender, eq(sender.id, chatMessages.senderId))
    .innerJoin(conversations, eq(conversations.id, chatMessages.conversationId))
    .innerJoin(products, eq(products.id, conversations.productId))
    .where(inArray(chatMessages.id, ids));
  return rows.map((row) => ({
    message: {
      ...toModeratedMessage(row),
      conversationId: row.conversationId,
      productId: row.productId,
      productName: row.productName,
    } satisfies ReportedMessage,
    authorEmail: row.senderEmail,
    authorSuspended: row.senderSuspendedAt !== null,
  }));
}

const buyer = alias(users, 'buyer');
const seller = alias(users, 'seller');

/**
 * The reported message amid its thread: up to REPORT_CONTEXT_MESSAGES before and after it, oldest
 * first, read along the thread's (conversation, time, id) index. Undefined once the message is gone.
 */
export async function threadExcerpt(db: Executor, reportId: string, messageId: string): Promise<ReportContext | undefined> {
  const [anchor] = await db
    .select({
      id: chatMessages.id,
      conversationId: conversations.id,
      productId: products.id,
      productName: products.productName,
      buyerName: buyer.name,
      sellerName: seller.name,
    })
    .from(chatMessages)
    .innerJoin(conversations, eq(conversations.id, chatMessages.conversationId))
    .innerJoin(products, eq(products.id, conversations.productId))
    .innerJoin(buyer, eq(buyer.id, conversations.buyerId))
    .innerJoin(seller, eq(seller.id, conversations.sellerId))
    .where(eq(chatMessages.id, messageId));
  if (!anchor) return undefined;

  const selectModerated = () => db.select(moderatedColumns).from(chatMessages).innerJoin(sender, eq(sender.id, chatMessages.senderId));
  // Compared in SQL, row against row: a JavaScript Date would drop the timestamps' microseconds.
  const reportedPosition = sql`(select ${chatMessages.createdAt}, ${chatMessages.id} from ${chatMessages} where ${chatMessages.id} = ${messageId})`;
  /** The nearest messages on one side of the reported one, in (time, id) order as the thread pages them. */
  const nearest = (side: 'before' | 'after') => {
    const order = side === 'before' ? desc : asc;
    return selectModerated()
      .where(
        and(
          eq(chatMessages.conversationId, anchor.conversationId),
          sql`(${chatMessages.createdAt}, ${chatMessages.id}) ${sql.raw(side === 'before' ? '<' : '>')} ${reportedPosition}`,
        ),
      )
      .orderBy(order(chatMessages.createdAt), order(chatMessages.id))
      .limit(REPORT_CONTEXT_MESSAGES);
  };
  // One statement after another: this is read in its caller's transaction, on one connection.
  const earlier = await nearest('before');
  const [reported] = await selectModerated().where(eq(chatMessages.id, messageId));
  const later = await nearest('after');
  return {
    reportId,
    conversationId: anchor.conversationId,
    productId: anchor.productId,
    productName: anchor.productName,
    buyerName: anchor.buyerName,
    sellerName: anchor.sellerName,
    reportedMessageId: anchor.id,
    messages: [...earlier.reverse(), reported!, ...later].map(toModeratedMessage),
  };
}

/**
 * Removes a message by moderation: it stays in the database as the record an admin judged, and
 * both participants read the removal notice in its place from now on, told at once by live event.
 */
export async function removeMessage(tx: Executor, messageId: string) {
  const [row] = await tx
    .update(chatMessages)
    .set({ removedAt: new Date() })
    .where(eq(chatMessages.id, messageId))
    .returning({ conversationId: chatMessages.conversationId });
  if (!row) return false;
  const [thread] = await tx
    .select({ buyerId: conversations.buyerId, sellerId: conversations.sellerId })
    .from(conversations)
    .where(eq(conversations.id, row.conversationId));
  await publishLiveEvent(tx, { to: [thread!.buyerId, thread!.sellerId], type: 'message.removed', data: { conversationId: row.conversationId, messageId } });
  return true;
}
