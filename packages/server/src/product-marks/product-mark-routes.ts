import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, productMarks } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { errorResponses } from '../http/responses.ts';
import { productMarksOf } from './product-mark-repository.ts';

export const productMarkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/product-marks',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['wishes', 'bookings'],
        summary: 'The products you have wished for, booked and listed, by id',
        description:
          'Lets a product card show Wished or Booked instead of offering the action again, and nothing on the caller’s own listings. ' +
          'Only the caller’s own marks. A booking whose product was deleted is left out.',
        response: { 200: dataOf(productMarks), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, data: await productMarksOf(app.db, currentUser(request).id) }),
  );
};
