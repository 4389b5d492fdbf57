import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPage, auditQuery } from '@furniture/contract';
import { errorResponses } from '../http/responses.ts';
import { listAuditEntries } from './audit-log.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/audit',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'The audit log of admin acts, newest first (admin)',
        description:
          'Every admin act (verify, delete user, make admin, add category, each moderation action) with who, what, target, reason, when and the request’s address. ' +
          'Filters: `actor` (an account id), `action`, `since` (a date and time). Keyset pages: pass the answer’s `nextCursor` as `cursor` for older entries; `limit` up to 100. ' +
          'Entries cannot be changed or deleted, by this API or in the database.',
        querystring: auditQuery,
        response: { 200: auditPage, ...errorResponses },
      },
    },
    async (request) => {
      const { entries, nextCursor } = await listAuditEntries(app.db, request.query);
      return { success: true as const, data: entries, nextCursor };
    },
  );
};
