import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addWishBody, createdOf, deleteResponse, emailListQuery, idQuery, listOf, messages, serverMessages, wish } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { conflict, notFound } from '../http/errors.ts';
import { requireOwnEmailOrAdmin } from '../users/ownership.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { requireBuyable } from '../products/buyable-product.ts';
import { contactWithheldDescription } from '../products/product-repository.ts';
import { ownListCache } from '../cache/own-list-cache.ts';
import { deleteWishOfBuyer, prepareAddWish, prepareWishesOfBuyer, wishesOfBuyerList, toWish } from './wish-repository.ts';

export const wishRoutes: FastifyPluginAsyncZod = async (app) => {
  const wishesOfBuyer = prepareWishesOfBuyer(app.db);
  const addWish = prepareAddWish(app.db);
  // Besides the wishes: each product, its category, its seller (users) and the seller's rating.
  const keptWishes = ownListCache(app, ['products', 'categories', 'users', 'reviews'], wishesOfBuyerList);

  app.get(
    '/wishes',
    {
      config: { access: ['buy', 'admin'], onTokenVerified: keptWishes.readAhead },
      onSend: keptWishes.onSend,
      schema: {
        tags: ['wishes'],
        summary: 'A buyer’s wish list',
        description: `Each wish has the shape of its product, with the wish’s own _id and the productId; products sold since still show (inStock 'sold'). The e-mail must be the caller’s own; an admin may read anyone’s. Newest first. ${contactWithheldDescription} ${paginationDescription}`,
        querystring: emailListQuery,
        response: { 200: listOf(wish), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = await requireOwnEmailOrAdmin(app, request, request.query.email, 'wishes');
      const page = pageOf(request.query);
      return keptWishes.answer(request, reply, {
        owner: buyer.id,
        async compute() {
          const { wishes, rowVersions } = await wishesOfBuyer(buyer.id, page.probe);
          return { answer: { success: true as const, data: pageRows(request, reply, wishes, page) }, rowVersions };
        },
      });
    },
  );

  app.post(
    '/addWish',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['wishes'],
        summary: 'Add an available product to your wish list (buyer)',
        description:
          'Only productId is read: the wish’s name, e-mail, price, product name, image and stock state come from the account and the product. ' +
          'Answers the specification’s success and message, and also the created wish as data.',
        body: addWishBody,
        response: { 201: createdOf(wish), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = currentUser(request);
      const { wishId, ...product } = requireBuyable(await addWish(buyer.id, request.body.productId), 'wish for');
      if (!wishId) throw conflict(serverMessages.wishes.alreadyWished);
      const created = toWish({ ...product, wishId });
      return reply
        .status(201)
        .send({ success: true as const, message: serverMessages.wishes.added(created.productName), data: created });
    },
  );

  app.delete(
    '/wishDelete',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['wishes'],
        summary: 'Remove one of your wishes (buyer)',
        description: 'The buyerEmail the specification’s client sends in the body is ignored: only the caller’s own wishes can be removed.',
        querystring: idQuery,
        response: { 200: deleteResponse, ...errorResponses },
      },
    },
    async (request) => {
      const buyer = currentUser(request);
      const deletedCount = await deleteWishOfBuyer(app.db, request.query.id, buyer.id);
      // Another buyer's wish answers the same as a missing one: its existence is not theirs to learn.
      if (deletedCount === 0) throw notFound(serverMessages.wishes.notFound);
      return { success: true, deletedCount, message: messages.productDeleted };
    },
  );
};
