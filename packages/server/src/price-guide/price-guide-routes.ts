import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, PRICE_GUIDE_MIN_SALES, priceGuide, priceGuideQuery, serverMessages } from '@furniture/contract';
import { findCategoryById } from '../categories/category-repository.ts';
import { badRequest } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';
import { priceGuideFor } from './price-guide.ts';

export const priceGuideRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/price-guide',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['products'],
        summary: 'A fair resale price range for a piece (seller)',
        description:
          'From comparable sales here (same category, same or neighbouring condition, similar age, recent ones weighing more): ' +
          `low, typical and high are the weighted quartiles and median, with basis "sales" and how many sales they rest on. With fewer than ${PRICE_GUIDE_MIN_SALES} such sales, ` +
          'an estimate from the original price depreciated by condition and age, with basis "estimate".',
        querystring: priceGuideQuery,
        response: { 200: dataOf(priceGuide), ...errorResponses },
      },
    },
    async (request) => {
      if (!(await findCategoryById(app.db, request.query.categoryId))) throw badRequest(serverMessages.products.noCategory);
      return { success: true as const, data: await priceGuideFor(app.db, request.query) };
    },
  );
};
