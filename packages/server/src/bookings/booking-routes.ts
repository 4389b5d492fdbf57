import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addBookingBody, booking, createdOf, deleteResponse, emailListQuery, idQuery, listOf, messages, serverMessages } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { products } from '../db/schema/index.ts';
import { conflict, notFound } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { requireOwnEmailOrAdmin } from '../users/ownership.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { requireBuyable } from '../products/buyable-product.ts';
import { ownListCache } from '../cache/own-list-cache.ts';
import { announceNotification } from '../notifications/notify.ts';
import { deleteUnpaidBookingOfBuyer, findBookingById, prepareBookProduct, prepareBookingsOfBuyer, bookingsOfBuyerList } from './booking-repository.ts';
import { releaseBookingForDeletion } from '../sales/sale-transitions.ts';

export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  const bookingsOfBuyer = prepareBookingsOfBuyer(app.db);
  const bookProduct = prepareBookProduct(app.db, app.config.fee);
  // Besides the bookings: the buyer's and the seller's names (users) and the product's state and phone.
  const keptBookings = ownListCache(app, ['users', 'products'], bookingsOfBuyerList);

  /**
   * Each booking made or cancelled tells the seller (a notification and an e-mail): counted per
   * buyer, and per buyer and seller, so nobody can make another person be told without end.
   */
  const countBookingChange = async (buyerId: string, productId: string | null) => {
    await enforceLimit(app.db, { limit: RATE_LIMITS.bookingChangesPerAccount, subject: buyerId });
    const [product] = productId ? await app.db.select({ sellerId: products.sellerId }).from(products).where(eq(products.id, productId)) : [];
    if (product) await enforceLimit(app.db, { limit: RATE_LIMITS.bookingChangesPerSeller, subject: `${buyerId}|${product.sellerId}` });
  };

  app.get(
    '/booking',
    {
      config: { access: ['buy', 'admin'], onTokenVerified: keptBookings.readAhead },
      onSend: keptBookings.onSend,
      schema: {
        tags: ['bookings'],
        summary: 'A buyer’s bookings (My Orders)',
        description:
          'inStock is the product’s current state (sold once it is gone); paymentStatus and transactionId come from the payments. ' +
          `The e-mail must be the caller’s own; an admin may read anyone’s. Newest first. ${paginationDescription}`,
        querystring: emailListQuery,
        response: { 200: listOf(booking), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = await requireOwnEmailOrAdmin(app, request, request.query.email, 'bookings');
      const page = pageOf(request.query);
      return keptBookings.answer(request, reply, {
        owner: buyer.id,
        async compute() {
          const { bookings, rowVersions } = await bookingsOfBuyer(buyer.id, page.probe);
          return { answer: { success: true as const, data: pageRows(request, reply, bookings, page) }, rowVersions };
        },
      });
    },
  );

  app.post(
    '/addBooking',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['bookings'],
        summary: 'Book an available product (buyer)',
        description:
          'Reads productId, phoneNumber and location. The buyer’s name and e-mail come from the account; the product’s name, image and ' +
          'price (its resalePrice) from the product, whatever the request sends. Answers the specification’s success and message, and also the created booking as data.',
        body: addBookingBody,
        response: { 201: createdOf(booking), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = currentUser(request);
      await countBookingChange(buyer.id, request.body.productId);
      const { booking: created, ...product } = requireBuyable(await bookProduct(buyer, request.body), 'book');
      if (!created) throw conflict(serverMessages.bookings.alreadyBooked);
      await announceNotification(app.db, [product.sellerId]);
      return reply.status(201).send({ success: true as const, message: serverMessages.bookings.booked(created.productName), data: created });
    },
  );

  app.delete(
    '/bookingDelete',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['bookings'],
        summary: 'Cancel one of your unpaid bookings (buyer)',
        description:
          'The buyerEmail the specification’s client sends in the body is ignored: only the caller’s own bookings can be deleted. A paid booking is the record of a purchase and is kept (409).',
        querystring: idQuery,
        response: { 200: deleteResponse, ...errorResponses },
      },
    },
    async (request) => {
      const buyer = currentUser(request);
      const found = await findBookingById(app.db, request.query.id);
      // Another buyer's booking answers the same as a missing one: its existence is not theirs to learn.
      if (!found || found.buyerId !== buyer.id) throw notFound(serverMessages.bookings.notFound);
      if (found.booking.paymentStatus === 'paid') throw conflict(serverMessages.bookings.paidKept);
      await countBookingChange(buyer.id, found.booking.productId);
      const deletedCount = await app.db.transaction(async (tx) => {
        // An accepted booking gives its reservation back first (decision 20).
        if (!(await releaseBookingForDeletion(tx, found.booking._id, buyer.id))) return 0;
        return deleteUnpaidBookingOfBuyer(tx, found.booking._id, buyer.id);
      });
      if (deletedCount === 0) throw conflict(serverMessages.bookings.paidKept);
      return { success: true, deletedCount, message: messages.productDeleted };
    },
  );
};
