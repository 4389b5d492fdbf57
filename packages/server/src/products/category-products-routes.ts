import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categoryProducts, idParams, paginationQuery, serverMessages } from '@furniture/contract';
import { notFound } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { findCategoryById } from '../categories/category-repository.ts';
import { contactWithheldDescription, listProductsInCategory, toProduct } from './product-repository.ts';

/** A category's page lists products, so the products domain answers it (categories know nothing of products). */
export const categoryProductRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/category/:id',
    {
      config: { access: 'signed-in', cache: { tables: ['categories', 'products', 'users', 'reviews'] } },
      schema: {
        tags: ['categories'],
        summary: 'Products of one category, available ones first',
        description: `The specification shows no shape: this answers {success, products}: available products first, then sold ones (which the web app shows as Unavailable), newest first within each. ${contactWithheldDescription} ${paginationDescription}`,
        params: idParams,
        querystring: paginationQuery,
        response: { 200: categoryProducts, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await findCategoryById(app.db, id))) throw notFound(serverMessages.categories.notFound);
      const page = pageOf(request.query);
      const rows = await listProductsInCategory(app.db, id, page.probe);
      return { success: true as const, products: pageRows(request, reply, rows, page).map(toProduct) };
    },
  );
};
