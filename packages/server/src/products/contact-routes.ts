import { and, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactTexts, dataOf, idParams, sellerContact } from '@furniture/contract';
import { bookings, products, users } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products/:id/contact',
    {
      // Never cached: the answer depends on who asks.
      config: { access: 'signed-in' },
      schema: {
        tags: ['products'],
        summary: 'How to reach a product’s seller: e-mail and phone',
        description:
          'Only the product’s seller, admins, and a buyer whose booking of the product is open, accepted, paid, or closed within the last 30 days get an answer; anyone else 403. ' +
          'Every other answer that carries a product leaves `sellerEmail` and `phone` empty (decision 23), so strangers and search engines never harvest them.',
        params: idParams,
        response: { 200: dataOf(sellerContact), ...errorResponses },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const [row] = await app.db
        .select({ sellerId: products.sellerId, sellerName: users.name, sellerEmail: users.email, phone: products.phone })
        .from(products)
        .innerJoin(users, eq(users.id, products.sellerId))
        .where(eq(products.id, request.params.id));
      if (!row) throw notFound(contactTexts.productNotFound);
      if (row.sellerId !== caller.id && caller.role !== 'admin') {
        const [booking] = await app.db
          .select({ id: bookings.id })
          .from(bookings)
          .where(
            and(
              eq(bookings.productId, request.params.id),
              eq(bookings.buyerId, caller.id),
              // A declined or cancelled booking, or a sale long done, no longer needs the seller's details.
              or(
                inArray(bookings.status, ['open', 'accepted', 'paid']),
                and(eq(bookings.status, 'closed'), gt(bookings.statusChangedAt, sql`now() - interval '30 days'`)),
              ),
            ),
          );
        if (!booking) throw forbidden(contactTexts.notAllowed);
      }
      return { success: true as const, data: { sellerName: row.sellerName, sellerEmail: row.sellerEmail, phone: row.phone } };
    },
  );
};
