import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS } from '../http/errors.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Application and database state',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('up') }),
          503: z.object({ status: z.literal('degraded'), database: z.literal('down') }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'up' as const };
      } catch {
        return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'degraded', database: 'down' });
      }
    },
  );
};
