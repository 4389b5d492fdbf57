import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { declineBookingBody, type EditProductBody, editProductBody, idParams, listOf, paginationQuery, saleMessages, sellerBooking, serverMessages, successMessage } from '@furniture/contract';
import { findCategoryById } from '../categories/category-repository.ts';
import { currentUser } from '../http/access.ts';
import { badRequest } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { scheduleRelease } from './buyer-protection.ts';
import { listBookingsOfSeller } from './seller-bookings.ts';
import { changeBooking, changeListing, type BookingAction, type ListingAction, type ListingEdit, type RefundPayment } from './sale-transitions.ts';

const stateRules = 'States and transitions: decision 20. A step the booking’s or listing’s state does not allow answers 409 saying why.';

/** The listing's columns an edit sets, from the request's fields. */
async function listingEditOf(app: Parameters<FastifyPluginAsyncZod>[0], body: EditProductBody): Promise<ListingEdit> {
  if (body.categoryId && !(await findCategoryById(app.db, body.categoryId))) throw badRequest(serverMessages.products.noCategory);
  const photos = body.photos?.length ? body.photos : body.productImage ? [body.productImage] : undefined;
  const money = (value: number | undefined) => (value === undefined ? undefined : value.toFixed(2));
  const edit: ListingEdit = {
    categoryId: body.categoryId,
    condition: body.condition,
    productName: body.productName,
    yearsOfUsedProduct: body.yearsOfUsedProduct,
    originalPrice: money(body.originalPrice),
    resalePrice: money(body.resalePrice),
    description: body.description,
    phone: body.phone,
    location: body.location,
    ...(photos ? { photos, productImage: photos[0] } : {}),
    ...(body.measurements !== undefined
      ? {
          widthCm: body.measurements?.widthCm ?? null,
          depthCm: body.measurements?.depthCm ?? null,
          heightCm: body.measurements?.heightCm ?? null,
        }
      : {}),
  };
  return Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined));
}

/**
 * The seller's side of a sale: incoming bookings, each step of a booking, and the changes a seller
 * makes to a listing. Every state change goes through sale-transitions.ts.
 */
export const saleRoutes: FastifyPluginAsyncZod<{ refundPayment: RefundPayment }> = async (app, { refundPayment }) => {
  app.get(
    '/seller/bookings',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['sales'],
        summary: 'Every booking on the caller’s products, newest first (seller)',
        description: `With the buyer’s name, e-mail and phone, the meeting location, when it was booked, whether it is paid, and its status. ${paginationDescription}`,
        querystring: paginationQuery,
        response: { 200: listOf(sellerBooking), ...errorResponses },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const rows = await listBookingsOfSeller(app.db, currentUser(request).id, page.probe);
      return { success: true as const, data: pageRows(request, reply, rows, page) };
    },
  );

  const bookingSteps: Record<BookingAction, { who: 'buyer' | 'seller'; summary: string; done: (productName: string) => string }> = {
    accept: {
      who: 'seller',
      summary: 'Accept an open booking: the piece is reserved for this buyer, and the other bookings are declined',
      done: saleMessages.accepted,
    },
    decline: { who: 'seller', summary: 'Decline an open or accepted, unpaid booking with a reason the buyer sees', done: () => saleMessages.declined },
    cancel: { who: 'buyer', summary: 'Cancel one of your unpaid bookings; an accepted one frees the piece', done: () => saleMessages.cancelled },
    handover: { who: 'seller', summary: 'Mark a paid sale as handed over, which closes it; its money is released RELEASE_AFTER_HOURS later unless the buyer reports a problem', done: () => saleMessages.handedOver },
    received: { who: 'buyer', summary: 'Confirm you received a paid piece, which closes the sale and releases its money to the seller', done: () => saleMessages.received },
    refund: {
      who: 'seller',
      summary: 'Cancel a paid sale by refunding it through the payment provider; the piece is available again',
      done: () => saleMessages.refunded,
    },
  };

  for (const [action, step] of Object.entries(bookingSteps) as [BookingAction, (typeof bookingSteps)[BookingAction]][]) {
    app.post(
      `/bookings/:id/${action}`,
      {
        config: { access: [step.who === 'buyer' ? 'buy' : 'sell'] },
        schema: {
          tags: ['sales'],
          summary: `${step.summary} (${step.who})`,
          description: `Only the booking’s ${step.who === 'buyer' ? 'buyer' : 'seller'} can; anyone else is told there is no such booking (404). ${stateRules}`,
          params: idParams,
          ...(action === 'decline' ? { body: declineBookingBody } : {}),
          response: { 200: successMessage, ...errorResponses },
        },
      },
      async (request) => {
        const reason = action === 'decline' ? (request.body as z.infer<typeof declineBookingBody>).reason : undefined;
        const change = await app.db.transaction(async (tx) => {
          const changed = await changeBooking(tx, { bookingId: request.params.id, action, callerId: currentUser(request).id, ...(reason ? { reason } : {}) });
          if (action === 'handover') await scheduleRelease(tx, changed.bookingId, app.config.releaseAfterHours);
          return changed;
        });
        if (change.paymentToRefund) {
          try {
            await refundPayment(change.paymentToRefund);
          } catch (error) {
            // The sale is cancelled and the refund owed is recorded; the refund retry makes it (decision 7).
            request.log.error({ err: error, paymentId: change.paymentToRefund.id }, 'refund of a cancelled sale failed; the refund retry makes it');
            return { success: true, message: saleMessages.refundPending };
          }
        }
        return { success: true, message: step.done(change.productName) };
      },
    );
  }

  app.patch(
    '/products/:id',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['sales'],
        summary: 'Edit one of your listings (seller)',
        description:
          'Any of the listing’s fields, as in addProduct; fields left out stay. Not once it is sold (409). A lower resalePrice is added to priceHistory ' +
          `and the people who wished for the piece are told. An available listing’s 60 days start again. ${stateRules}`,
        params: idParams,
        body: editProductBody,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const edit = await listingEditOf(app, request.body);
      const { productName } = await app.db.transaction((tx) =>
        changeListing(tx, { productId: request.params.id, action: 'edit', sellerId: currentUser(request).id, edit }),
      );
      return { success: true, message: saleMessages.edited(productName) };
    },
  );

  const listingSteps: Record<Exclude<ListingAction, 'edit'>, { summary: string; done: (productName: string) => string }> = {
    renew: { summary: 'Renew or relist an available, expired or withdrawn listing for another 60 days', done: saleMessages.renewed },
    withdraw: { summary: 'Take an available or expired listing down; its open bookings are declined', done: saleMessages.withdrawnDone },
    'sold-elsewhere': { summary: 'Mark a listing sold outside the app; its unpaid bookings are declined', done: saleMessages.soldElsewhereDone },
  };
  for (const [action, step] of Object.entries(listingSteps) as [Exclude<ListingAction, 'edit'>, (typeof listingSteps)['renew']][]) {
    app.post(
      `/products/:id/${action}`,
      {
        config: { access: ['sell'] },
        schema: {
          tags: ['sales'],
          summary: `${step.summary} (seller)`,
          description: `Only the product’s seller can (403 for another seller). ${stateRules}`,
          params: idParams,
          response: { 200: successMessage, ...errorResponses },
        },
      },
      async (request) => {
        const { productName } = await app.db.transaction((tx) =>
          changeListing(tx, { productId: request.params.id, action, sellerId: currentUser(request).id }),
        );
        return { success: true, message: step.done(productName) };
      },
    );
  }
};
