import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createReviewBody, dataOf, editReviewBody, idParams, review, reviewTexts, sellerPage } from '@furniture/contract';
import { bookings, products, reviews } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { conflict, notFound } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';
import { editableUntil, findReview, sellerPage as loadSellerPage } from './review-repository.ts';

const savedReview = z.object({ success: z.literal(true), message: z.string(), data: review });
const ownReview = z.object({ success: z.literal(true), data: review.nullable() });

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/reviews',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['trust'],
        summary: 'Review the other side of a closed sale',
        description:
          'The booking’s buyer rates its seller, and its seller rates its buyer: 1 to 5 stars and a short text, once per sale (409 for a second). ' +
          'Only a sale that was paid and handed over (`closed`) can be reviewed (409 otherwise); anyone not in the sale is told there is no such sale (404).',
        body: createReviewBody,
        response: { 201: savedReview, ...errorResponses },
      },
    },
    async (request, reply) => {
      const author = currentUser(request);
      const { bookingId, rating, text } = request.body;
      const id = await app.db.transaction(async (tx) => {
        const [sale] = await tx
          .select({ buyerId: bookings.buyerId, status: bookings.status, sellerId: products.sellerId })
          .from(bookings)
          .innerJoin(products, eq(products.id, bookings.productId))
          .where(eq(bookings.id, bookingId))
          .for('share', { of: bookings });
        const authorRole = sale?.buyerId === author.id ? 'buyer' : sale?.sellerId === author.id ? 'seller' : undefined;
        if (!sale || !authorRole) throw notFound(reviewTexts.bookingNotFound);
        if (sale.status !== 'closed') throw conflict(reviewTexts.notClosed);
        const subjectId = authorRole === 'buyer' ? sale.sellerId : sale.buyerId;
        const [row] = await tx
          .insert(reviews)
          .values({ bookingId, authorId: author.id, subjectId, authorRole, rating, text })
          .onConflictDoNothing()
          .returning({ id: reviews.id });
        if (!row) throw conflict(reviewTexts.alreadyReviewed);
        return row.id;
      });
      return reply.status(201).send({ success: true as const, message: reviewTexts.saved, data: (await findReview(app.db, id))! });
    },
  );

  app.get(
    '/bookings/:id/review',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['trust'],
        summary: 'Your review of a sale',
        description:
          'The review the caller wrote of this sale (as its buyer or its seller), null before they write one, so they can change it while it is not final. ' +
          'Anyone not in the sale is told there is no such sale (404).',
        params: idParams,
        response: { 200: ownReview, ...errorResponses },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const [sale] = await app.db
        .select({ buyerId: bookings.buyerId, sellerId: products.sellerId })
        .from(bookings)
        .innerJoin(products, eq(products.id, bookings.productId))
        .where(eq(bookings.id, request.params.id));
      if (!sale || (sale.buyerId !== caller.id && sale.sellerId !== caller.id)) throw notFound(reviewTexts.bookingNotFound);
      const [own] = await app.db
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.bookingId, request.params.id), eq(reviews.authorId, caller.id)));
      return { success: true as const, data: own ? ((await findReview(app.db, own.id)) ?? null) : null };
    },
  );

  app.patch(
    '/reviews/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['trust'],
        summary: 'Change your review, within 14 days of writing it',
        description: 'Only its author can (404 for anyone else); after 14 days a review is final (409).',
        params: idParams,
        body: editReviewBody,
        response: { 200: savedReview, ...errorResponses },
      },
    },
    async (request) => {
      const author = currentUser(request);
      await app.db.transaction(async (tx) => {
        const [existing] = await tx.select().from(reviews).where(eq(reviews.id, request.params.id)).for('update');
        if (!existing || existing.authorId !== author.id) throw notFound(reviewTexts.reviewNotFound);
        if (editableUntil(existing.createdAt) <= new Date()) throw conflict(reviewTexts.reviewFinal);
        await tx
          .update(reviews)
          .set({ rating: request.body.rating, text: request.body.text, editedAt: new Date() })
          .where(eq(reviews.id, existing.id));
      });
      return { success: true as const, message: reviewTexts.updated, data: (await findReview(app.db, request.params.id))! };
    },
  );

  app.get(
    '/sellers/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['trust'],
        summary: 'A seller’s public profile',
        description:
          'Photo, name, verified, member since, items sold, the average rating and number of reviews, the newest reviews and the listings available now. ' +
          'No e-mail and no phone: contact details are never public (decision 23). A suspended seller has no profile (404).',
        params: idParams,
        response: { 200: dataOf(sellerPage), ...errorResponses },
      },
    },
    async (request) => {
      const profile = await loadSellerPage(app.db, request.params.id);
      if (!profile) throw notFound(reviewTexts.sellerNotFound);
      return { success: true as const, data: profile };
    },
  );
};
