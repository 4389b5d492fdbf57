import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, emailQuery, errorResponse, publicUser, serverMessages } from '@furniture/contract';
import { notFound } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { errorResponses } from '../http/responses.ts';
import { findUserByEmail, toPublicUser } from './user-repository.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user',
    {
      config: { access: 'public' },
      schema: {
        tags: ['users'],
        summary: 'The profile of an account, by e-mail',
        description:
          'Profile fields only (name, email, image, userRole, verified, emailVerified). The account itself and admins get any record; anyone else ' +
          'only sellers’ that are not suspended, and 404 for every other e-mail, as for one without an account. ' +
          'It confirms only that a seller has the e-mail the caller already knows; listings no longer show e-mails (decision 23). ' +
          'Those look-ups are limited per address. The specification calls it without a token.',
        querystring: emailQuery,
        response: { 200: dataOf(publicUser), 400: errorResponses[400], 404: errorResponses[404], 429: errorResponse },
      },
    },
    async (request) => {
      const { email } = request.query;
      const caller = request.user;
      const ownOrAdmin = caller !== null && (caller.email === email || caller.role === 'admin');
      if (!ownOrAdmin) await enforceLimit(app.db, { limit: RATE_LIMITS.accountLookupsPerAddress, subject: request.ip });
      const user = await findUserByEmail(app.db, email);
      const strangerMaySee = user?.capabilities.includes('sell') && !user.suspendedAt;
      if (!user || (!ownOrAdmin && !strangerMaySee)) throw notFound(serverMessages.admin.noAccount(email));
      return { success: true as const, data: toPublicUser(user) };
    },
  );
};
