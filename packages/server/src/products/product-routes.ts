import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountTexts, addProductBody, createdOf, deleteResponse, emailListQuery, idQuery, LISTING_LIFETIME_DAYS, listOf, messages, paginationQuery, product, sellerProduct, serverMessages, successMessage } from '@furniture/contract';
import { currentUser, requireVerifiedEmail } from '../http/access.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { requireOwnEmailOrAdmin } from '../users/ownership.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { findCategoryById } from '../categories/category-repository.ts';
import {
  advertiseProduct,
  deleteProductWithDependents,
  findProductById,
  insertProduct,
  listAdvertisedProducts,
  listProductsOfSeller,
  contactWithheldDescription,
  toProduct,
  toProductWithContact,
} from './product-repository.ts';
import { scheduleListingExpiry } from './listing-expiry.ts';

export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/advertisement',
    {
      config: { access: 'public', cache: { tables: ['categories', 'products', 'users', 'reviews'] } },
      schema: {
        tags: ['products'],
        summary: 'Advertised products that are still available',
        description: `Newest first. ${contactWithheldDescription} ${paginationDescription}`,
        querystring: paginationQuery,
        response: { 200: listOf(product), 400: errorResponses[400] },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const rows = await listAdvertisedProducts(app.db, page.probe);
      return { success: true as const, data: pageRows(request, reply, rows, page).map(toProduct) };
    },
  );

  app.post(
    '/addProduct',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['products'],
        summary: 'List a product for sale (seller)',
        description:
          'The seller’s name and e-mail come from the account and the category name from the category; values sent for them are ignored. ' +
          'Photos (up to 8) may be sent instead of or with productImage: the first photo is the cover and becomes productImage. ' +
          'Measurements are optional: width, depth and height in centimetres, all three or none. ' +
          'The product starts not advertised, available and not reported. Answers the specification’s success and message, and also the created product as data.',
        body: addProductBody,
        response: { 201: createdOf(product), ...errorResponses },
      },
    },
    async (request, reply) => {
      const seller = currentUser(request);
      requireVerifiedEmail(seller, accountTexts.server.verifyToPublish);
      const body = request.body;
      if (!(await findCategoryById(app.db, body.categoryId))) throw badRequest(serverMessages.products.noCategory);
      // The cover is the first photo; a client that sends only productImage lists that one photo.
      const photos = body.photos?.length ? body.photos : body.productImage ? [body.productImage] : [];
      if (photos.length === 0) throw badRequest(serverMessages.products.imageRequired);
      const expiresAt = new Date(Date.now() + LISTING_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
      const id = await app.db.transaction(async (tx) => {
        const productId = await insertProduct(
          tx,
          {
        categoryId: body.categoryId,
        sellerId: seller.id,
        condition: body.condition,
        productName: body.productName,
        yearsOfUsedProduct: body.yearsOfUsedProduct,
        originalPrice: body.originalPrice,
        resalePrice: body.resalePrice,
        description: body.description,
        phone: body.phone,
        location: body.location,
        photos,
        measurements: body.measurements ?? null,
          },
          expiresAt,
        );
        await scheduleListingExpiry(tx, productId, expiresAt);
        return productId;
      });
      const created = (await findProductById(app.db, id))!;
      return reply
        .status(201)
        .send({ success: true as const, message: serverMessages.products.listed(created.productName), data: toProductWithContact(created) });
    },
  );

  app.get(
    '/myProducts',
    {
      config: { access: ['sell', 'admin'] },
      schema: {
        tags: ['products'],
        summary: 'A seller’s products in every state (My Products)',
        description:
          'Sold, withdrawn and expired listings included, each with its state, when it expires, and its counts of wishes and bookings. ' +
          `The e-mail must be the caller’s own; an admin may read any seller’s list. Newest first. ${paginationDescription}`,
        querystring: emailListQuery,
        response: { 200: listOf(sellerProduct), ...errorResponses },
      },
    },
    async (request, reply) => {
      const seller = await requireOwnEmailOrAdmin(app, request, request.query.email, 'products');
      const page = pageOf(request.query);
      const rows = await listProductsOfSeller(app.db, seller.id, page.probe);
      return { success: true as const, data: pageRows(request, reply, rows, page) };
    },
  );

  app.delete(
    '/productDelete',
    {
      config: { access: ['sell', 'admin'] },
      schema: {
        tags: ['products'],
        summary: 'Delete a product with its wishes and unpaid bookings',
        description:
          'A seller may delete only their own products; an admin may delete any. Paid bookings and payment records are kept. One transaction.',
        querystring: idQuery,
        response: { 200: deleteResponse, ...errorResponses },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const found = await findProductById(app.db, request.query.id);
      if (!found) throw notFound(serverMessages.products.notFound);
      if (caller.role !== 'admin' && found.sellerId !== caller.id) throw forbidden(serverMessages.products.onlyOwnDelete);
      const deletedCount = await app.db.transaction((tx) => deleteProductWithDependents(tx, found.id));
      if (deletedCount === 0) throw notFound(serverMessages.products.notFound);
      return { success: true, deletedCount, message: messages.productDeleted };
    },
  );

  app.post(
    '/productAddToAdvertisement',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['products'],
        summary: 'Advertise one of your available products (seller)',
        querystring: idQuery,
        response: { 200: successMessage, ...errorResponses },
      },
    },
    async (request) => {
      const seller = currentUser(request);
      const found = await findProductById(app.db, request.query.id);
      if (!found) throw notFound(serverMessages.products.notFound);
      if (found.sellerId !== seller.id) throw forbidden(serverMessages.products.onlyOwnAdvertise);
      if (found.inStock !== 'available') throw conflict(serverMessages.products.onlyAvailableAdvertised);
      if (found.advertisement) return { success: true, message: serverMessages.products.alreadyAdvertised(found.productName) };
      await advertiseProduct(app.db, found.id);
      return { success: true, message: serverMessages.products.advertised(found.productName) };
    },
  );
};
