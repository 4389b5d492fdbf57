import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCategoryBody, category, createdOf, paginationQuery, serverMessages } from '@furniture/contract';
import { conflict } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { errorResponses } from '../http/responses.ts';
import { recordAdminAct } from '../audit/audit-log.ts';
import { insertCategory, listCategories, toCategory } from './category-repository.ts';

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
