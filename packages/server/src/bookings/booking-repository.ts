import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { notificationTexts, webRoutes, type Booking, type PlatformFee } from '@furniture/contract';
import type { OwnedList } from '../db/row-versions.ts';
import { insertColumns, type Database, type Executor } from '../db/client.ts';
import { bookings, payments, products, users } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';
import { platformFeeSql } from '../ledger/ledger.ts';
import { notificationStatements, textAround } from '../notifications/notify.ts';
import { lockedProduct } from '../products/buyable-product.ts';
import { protectedBookingVersion, protectionColumns } from '../sales/buyer-protection.ts';
import { bookingIsPaid } from '../products/product-repository.ts';
import type { UserRow } from '../users/user-repository.ts';

const sellers = alias(users, 'sellers');

/**
 * A booking as its buyer sees it: the product as it was when booked, the product's current
 * state ('sold' once it is gone), whom to meet (the seller's name and phone, while the product
 * exists), and whether and how it was paid.
 */
const selectBookings = (db: Executor) =>
  db
    .select({
      id: bookings.id,
      buyerId: bookings.buyerId,
      buyerName: users.name,
      buyerEmail: users.email,
      productId: bookings.productId,
      productName: bookings.productName,
      productPrice: bookings.productPrice,
      productImage: bookings.productImage,
      inStock: sql<'available' | 'sold'>`coalesce(${products.inStock}, 'sold')`,
      phoneNumber: bookings.phoneNumber,
      location: bookings.location,
      bookedAt: bookings.createdAt,
      sellerName: sellers.name,
      sellerPhone: products.phone,
      paid: sql<boolean>`${bookingIsPaid}`,
      status: bookings.status,
      statusReason: bookings.statusReason,
      ...protectionColumns,
      transactionId: sql<string | null>`(
        select ${payments.transactionId} from ${payments}
        where ${payments.bookingId} = ${bookings.id} and ${payments.status} = 'succeeded'
          and (${payments.productId} = ${bookings.productId} or ${payments.buyerId} = ${bookings.buyerId})
        order by ${payments.createdAt} desc limit 1
      )`,
      version: protectedBookingVersion,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.buyerId))
    .leftJoin(products, eq(products.id, bookings.productId))
    .leftJoin(sellers, eq(sellers.id, products.sellerId));

type BookingRecord = Awaited<ReturnType<ReturnType<typeof selectBookings>['execute']>>[number];

export function toBooking(row: Omit<BookingRecord, 'version'>): Booking {
  return {
    _id: row.id,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    productId: row.productId,
    productName: row.productName,
    productPrice: Number(row.productPrice),
    productImage: row.productImage,
    inStock: row.inStock,
    phoneNumber: row.phoneNumber,
    location: row.location,
    bookedAt: row.bookedAt.toISOString(),
    sellerName: row.sellerName,
    sellerPhone: row.sellerPhone,
    paymentStatus: row.paid ? 'paid' : 'unpaid',
    transactionId: row.transactionId,
    status: row.status,
    statusReason: row.statusReason,
    fundsState: row.fundsState,
    releaseAt: row.releaseAt?.toISOString() ?? null,
    problemOpen: row.problemOpen,
  };
}

const ofBuyer = eq(bookings.buyerId, sql.placeholder('buyerId'));
const newestFirst = [desc(bookings.createdAt), desc(bookings.id)] as const;

/** A buyer's bookings, newest first; a booking's version covers its payment and its sale's problems. */
export const bookingsOfBuyerList: OwnedList = {
  table: bookings,
  owner: bookings.buyerId,
  createdAt: bookings.createdAt,
  id: bookings.id,
  version: protectedBookingVersion,
};

/**
 * The read of a page of a buyer's bookings, newest first (the (buyer, created) index), with each
 * row's version, prepared once for a database handle: parsed and planned once per connection
 * instead of once per request. A payment changes what a booking shows only in the transaction
 * that changes the booking's own row (the sale and the refund, sales/sale-transitions.ts), so the
 * rows' versions cover it.
 */
export function prepareBookingsOfBuyer(db: Database) {
  const list = selectBookings(db)
    .where(ofBuyer)
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('bookings_of_buyer');
  return async (buyerId: string, page: Page) => {
    const rows = await list.execute({ buyerId, ...page });
    return { bookings: rows.map(toBooking), rowVersions: rows.map(({ id, version }) => ({ id, version })) };
  };
}

export async function findBookingById(db: Executor, id: string): Promise<{ buyerId: string; booking: Booking } | undefined> {
  const [row] = await selectBookings(db).where(eq(bookings.id, id));
  return row && { buyerId: row.buyerId, booking: toBooking(row) };
}

/** What a buyer asks for when booking: the rest comes from their account and the product. */
export interface BookingRequest {
  productId: string;
  phoneNumber: string;
  location: string;
}

/**
 * Books a product in one statement, prepared once for a database handle and run on its own (no
 * transaction around it: one statement is atomic, and holds its locks to its own commit):
 * - the product locked and the buyer's refusal read from it (`lockedProduct`);
 * - the booking inserted only without one, at the product's price, with its name and image as
 *   they are now;
 * - for a booking made, the seller told (decision 22): the notification, its e-mail job, and its
 *   live event with the sale's, the seller's live-event lock taken after the product's, as before.
 * Answers the product with `refusal` and the new booking as its buyer sees it, null when the buyer
 * already booked this product; no row for an unknown product. The caller announces the seller's
 * notification (`announceNotification`) once it answers a booking.
 */
export function prepareBookProduct(db: Executor, fee: PlatformFee) {
  const product = lockedProduct(db, sql.placeholder('productId'), sql.placeholder('buyerId'));
  const booked = db
    .$with('booked', { id: bookings.id, bookedAt: bookings.createdAt, status: bookings.status, statusReason: bookings.statusReason })
    .as(sql`
      insert into ${bookings} (${insertColumns(bookings.buyerId, bookings.productId, bookings.productName, bookings.productImage, bookings.productPrice, bookings.feeCents, bookings.phoneNumber, bookings.location)})
      select ${sql.placeholder('buyerId')}::uuid, ${product.id}, ${product.productName}, ${product.productImage}, ${product.resalePrice},
        ${platformFeeSql(sql`${product.resalePrice}`, fee)},
        ${sql.placeholder('phoneNumber')}::text, ${sql.placeholder('location')}::text
      from ${product} where ${product.refusal} is null
      on conflict do nothing
      returning ${bookings.id}, ${bookings.createdAt}, ${bookings.status}, ${bookings.statusReason}`);
  // The seller, only when the booking was made: nobody is told of a refused one.
  const seller = sql`array(select ${product.sellerId}::text from ${product}, ${booked})`;
  const { notified, published } = notificationStatements(
    seller,
    {
      kind: 'booking-received',
      text: sql`(select ${sql.placeholder('textBefore')}::text || ${product.productName} || ${sql.placeholder('textAfter')}::text from ${product})`,
      link: webRoutes.dashboard.sellerBookings,
      image: sql`(select ${product.productImage} from ${product})`,
    },
    [{ type: 'sale.changed', data: sql`(select json_build_object('bookingId', ${booked.id}, 'productId', ${product.id}, 'status', 'open') from ${product}, ${booked})` }],
  );
  const statement = db
    .with(product, booked, db.$with('notified', {}).as(notified), db.$with('published', {}).as(published))
    .select()
    .from(product)
    .leftJoin(booked, sql`true`)
    .prepare('book_product');
  return async (buyer: Pick<UserRow, 'id' | 'name' | 'email'>, request: BookingRequest) => {
    const [row] = await statement.execute({
      buyerId: buyer.id,
      productId: request.productId,
      phoneNumber: request.phoneNumber,
      location: request.location,
      ...textAround((productName) => notificationTexts.bookingReceived(buyer.name, productName)),
    });
    if (!row) return undefined;
    const { product: found, booked: created } = row;
    const booking =
      created &&
      toBooking({
        ...created,
        buyerId: buyer.id,
        buyerName: buyer.name,
        buyerEmail: buyer.email,
        productId: found.id,
        productName: found.productName,
        productImage: found.productImage,
        productPrice: found.resalePrice,
        phoneNumber: request.phoneNumber,
        location: request.location,
        sellerName: found.sellerName,
        sellerPhone: found.phone,
        inStock: 'available',
        paid: false,
        transactionId: null,
        fundsState: null,
        releaseAt: null,
        problemOpen: false,
      });
    return { ...found, booking };
  };
}

/** Deletes one of the buyer's own unpaid bookings; answers how many rows went (0 or 1). */
export async function deleteUnpaidBookingOfBuyer(db: Executor, bookingId: string, buyerId: string): Promise<number> {
  const deleted = await db
    .delete(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.buyerId, buyerId), sql`not ${bookingIsPaid}`))
    .returning({ id: bookings.id });
  return deleted.length;
}

/**
 * Removes every booking of a buyer whose account goes. A booking cannot outlive its buyer; the
 * payment records keep the buyer's name and the amounts of whatever was paid.
 */
export async function deleteBookingsOfBuyer(tx: Executor, buyerId: string): Promise<void> {
  await tx.delete(bookings).where(eq(bookings.buyerId, buyerId));
}
