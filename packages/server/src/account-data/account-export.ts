import { asc, eq, inArray, or } from 'drizzle-orm';
import type { AccountExport } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, chatMessages, conversations, notifications, offers, payments, payouts, products, reviews, wishes } from '../db/schema/index.ts';
import { allEntriesOf } from '../ledger/earnings.ts';
import { settingsOf } from '../notifications/notification-repository.ts';
import { listOpenSessions } from '../users/account-sessions.ts';
import { listPasskeys } from '../users/passkeys.ts';
import { describeUserAgent } from '../users/user-agents.ts';
import { toOwnAccount, type UserRow } from '../users/user-repository.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Everything the account holds, for "Download my data" (decision 44). Columns are named one by
 * one, so no password hash, token, passkey key or payment secret can slip in with a new column.
 */
export async function exportAccount(db: Executor, user: UserRow): Promise<AccountExport> {
  const listings = await db
    .select({
      id: products.id,
      productName: products.productName,
      description: products.description,
      condition: products.condition,
      yearsOfUsedProduct: products.yearsOfUsedProduct,
      originalPrice: products.originalPrice,
      resalePrice: products.resalePrice,
      priceHistory: products.priceHistory,
      phone: products.phone,
      location: products.location,
      productImage: products.productImage,
      photos: products.photos,
      state: products.state,
      advertisement: products.advertisement,
      postedAt: products.postedAt,
      expiresAt: products.expiresAt,
    })
    .from(products)
    .where(eq(products.sellerId, user.id))
    .orderBy(asc(products.postedAt));
  const wished = await db
    .select({ id: wishes.id, productId: wishes.productId, productName: products.productName, createdAt: wishes.createdAt })
    .from(wishes)
    .innerJoin(products, eq(products.id, wishes.productId))
    .where(eq(wishes.buyerId, user.id))
    .orderBy(asc(wishes.createdAt));
  const bookingColumns = {
    id: bookings.id,
    productId: bookings.productId,
    productName: bookings.productName,
    productPrice: bookings.productPrice,
    feeCents: bookings.feeCents,
    phoneNumber: bookings.phoneNumber,
    location: bookings.location,
    status: bookings.status,
    statusReason: bookings.statusReason,
    paymentStatus: bookings.paymentStatus,
    createdAt: bookings.createdAt,
  };
  const booked = await db.select(bookingColumns).from(bookings).where(eq(bookings.buyerId, user.id)).orderBy(asc(bookings.createdAt));
  const sold = await db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(products.sellerId, user.id))
    .orderBy(asc(bookings.createdAt));
  const threads = await db
    .select()
    .from(conversations)
    .where(or(eq(conversations.buyerId, user.id), eq(conversations.sellerId, user.id)))
    .orderBy(asc(conversations.createdAt));
  const threadIds = threads.map((thread) => thread.id);
  const inThreads = threadIds.length > 0;
  const messages = inThreads
    ? await db.select().from(chatMessages).where(inArray(chatMessages.conversationId, threadIds)).orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    : [];
  const offersMade = inThreads ? await db.select().from(offers).where(inArray(offers.conversationId, threadIds)).orderBy(asc(offers.createdAt)) : [];
  const reviewsWritten = await db.select().from(reviews).where(eq(reviews.authorId, user.id)).orderBy(asc(reviews.createdAt));
  const paid = await db.select().from(payments).where(eq(payments.buyerId, user.id)).orderBy(asc(payments.createdAt));
  const paidOut = await db.select().from(payouts).where(eq(payouts.sellerId, user.id)).orderBy(asc(payouts.createdAt));
  const told = await db.select().from(notifications).where(eq(notifications.userId, user.id)).orderBy(asc(notifications.createdAt));

  const toBooking = ({ id, createdAt, ...booking }: (typeof booked)[number]) => ({ _id: id, ...booking, createdAt: iso(createdAt) });
  return {
    _id: user.id,
    exportedAt: new Date().toISOString(),
    account: { ...toOwnAccount(user), role: user.role, capabilities: user.capabilities, verified: user.verified, createdAt: user.createdAt.toISOString() },
    listings: listings.map(({ id, postedAt, expiresAt, ...listing }) => ({ _id: id, ...listing, postedAt: iso(postedAt), expiresAt: iso(expiresAt) })),
    wishes: wished.map(({ id, createdAt, ...wish }) => ({ _id: id, ...wish, createdAt: iso(createdAt) })),
    bookings: booked.map(toBooking),
    sales: sold.map(toBooking),
    conversations: threads.map((thread) => ({
      _id: thread.id,
      productId: thread.productId,
      yourSide: thread.buyerId === user.id ? 'buyer' : 'seller',
      createdAt: iso(thread.createdAt),
    })),
    offers: offersMade.map((offer) => ({
      _id: offer.id,
      conversationId: offer.conversationId,
      sentByYou: offer.senderId === user.id,
      amount: offer.amount,
      status: offer.status,
      createdAt: iso(offer.createdAt),
      answeredAt: iso(offer.answeredAt),
    })),
    messages: messages.map((message) => ({
      _id: message.id,
      conversationId: message.conversationId,
      sentByYou: message.senderId === user.id,
      text: message.text,
      removedByAdmin: message.removedAt !== null,
      createdAt: iso(message.createdAt),
    })),
    reviewsWritten: reviewsWritten.map((review) => ({
      _id: review.id,
      bookingId: review.bookingId,
      aboutYour: review.authorRole === 'buyer' ? 'seller' : 'buyer',
      rating: review.rating,
      text: review.text,
      createdAt: iso(review.createdAt),
      editedAt: iso(review.editedAt),
    })),
    payments: paid.map((payment) => ({
      _id: payment.id,
      bookingId: payment.bookingId,
      productName: payment.productName,
      amountCents: payment.amountCents,
      currency: payment.currency,
      status: payment.status,
      createdAt: iso(payment.createdAt),
    })),
    earnings: await allEntriesOf(db, user.id),
    payouts: paidOut.map((payout) => ({ _id: payout.id, amountCents: payout.amountCents, status: payout.status, createdAt: iso(payout.createdAt), paidAt: iso(payout.paidAt) })),
    notifications: told.map((notification) => ({
      _id: notification.id,
      text: notification.text,
      link: notification.link,
      read: notification.readAt !== null,
      createdAt: iso(notification.createdAt),
    })),
    notificationSettings: await settingsOf(db, user.id),
    passkeys: (await listPasskeys(db, user.id)).map((passkey) => ({
      _id: passkey.id,
      name: passkey.name,
      createdAt: iso(passkey.createdAt),
      lastUsedAt: iso(passkey.lastUsedAt),
    })),
    sessions: (await listOpenSessions(db, user.id)).map((session) => ({
      _id: session.familyId,
      device: describeUserAgent(session.userAgent),
      address: session.address,
      lastSeenAt: iso(session.lastSeenAt),
    })),
  };
}
