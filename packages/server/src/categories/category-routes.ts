import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCategoryBody, category, categoryProducts, createdOf, idParams, paginationQuery, serverMessages } from '@furniture/contract';
import { conflict, notFound } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { contactWithheldDescription, listProductsInCategory, toProduct } from '../products/product-repository.ts';
import { recordAdminAct } from '../audit/audit-log.ts';
import { findCategoryById, insertCategory, listCategories, toCategory } from './category-repository.ts';

export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  // The specification reads the same list from two paths: the shell's GET / and the loader's GET /allCategories.
  const categoryLists = [
    ['/', 'All categories (the home page list)'],
    ['/allCategories', 'All categories (the categories page loader)'],
  ] as const;
  for (const [url, summary] of categoryLists) {
    app.get(
      url,
      {
        config: { access: 'public', cache: { tables: ['categories'] } },
        schema: {
          tags: ['categories'],
          summary,
          description: `A plain array of categories, alphabetical. ${paginationDescription}`,
          querystring: paginationQuery,
          response: { 200: z.array(category), 400: errorResponses[400] },
        },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        return pageRows(request, reply, await listCategories(app.db, page.probe), page).map(toCategory);
      },
    );
  }

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

  app.post(
    '/addCategory',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['categories'],
        summary: 'Add a category (admin)',
        description: 'Answers the specification’s success and message, and also the created category as data.',
        body: addCategoryBody,
        response: { 201: createdOf(category), ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await app.db.transaction(async (tx) => {
        const row = await insertCategory(tx, request.body);
        if (row) await recordAdminAct(tx, request, { action: 'category.add', targetType: 'category', targetId: row.id, targetLabel: row.categoryName });
        return row;
      });
      if (!created) throw conflict(serverMessages.categories.exists(request.body.categoryName));
      return reply
        .status(201)
        .send({ success: true as const, message: serverMessages.categories.added(created.categoryName), data: toCategory(created) });
    },
  );
};
