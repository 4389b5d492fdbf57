import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, emailQuery, publicUser } from '@furniture/contract';
import { notFound } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';
import { findUserByEmail, toPublicUser } from './user-repository.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user',
    {
      config: { access: 'public' },
      schema: {
        tags: ['users'],
        summary: 'The public profile of an account, by e-mail',
        description: 'Profile fields only (name, email, image, userRole, verified). The specification calls it without a token.',
        querystring: emailQuery,
        response: { 200: dataOf(publicUser), 400: errorResponses[400], 404: errorResponses[404] },
      },
    },
    async (request) => {
      const user = await findUserByEmail(app.db, request.query.email);
      if (!user) throw notFound(`No account with the e-mail ${request.query.email}`);
      return { success: true as const, data: toPublicUser(user) };
    },
  );
};
