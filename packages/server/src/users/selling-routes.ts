import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { capabilityTexts, createdOf, errorResponse, publicUser } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { grantCapability, toPublicUser } from './user-repository.ts';

/** One account buys and sells (decision 37): a buyer starts selling and keeps everything a buyer has. */
export const sellingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/me/selling',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Start selling: the account can list furniture as well as buy',
        description:
          'Adds the sell capability; the account keeps its orders, wishes and conversations. A buyer’s main role (userRole) becomes seller; an admin stays admin. Asking again changes nothing.',
        response: { 200: createdOf(publicUser), 401: errorResponse, 403: errorResponse },
      },
    },
    async (request) => {
      const user = await grantCapability(app.db, currentUser(request).id, 'sell');
      return { success: true as const, message: capabilityTexts.startSelling.started, data: toPublicUser(user!) };
    },
  );
};
