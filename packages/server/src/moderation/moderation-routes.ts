import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { createReportBody, idParams, listOf, moderationActionBody, report, reportedTarget, trustTexts } from '@furniture/contract';
import { recordAdminAct } from '../audit/audit-log.ts';
import type { Executor } from '../db/client.ts';
import { products, users } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { bearerSecurity, errorResponses } from '../http/responses.ts';
import { refundPayment } from '../payments/fulfilment.ts';
import { moderate } from './moderation.ts';
import { insertReport, listReportQueue, toReport } from './report-repository.ts';

/** The owner of a report's target: a listing's seller, or the account itself; undefined when there is no such target. */
async function ownerOfTarget(db: Executor, targetType: 'product' | 'user', targetId: string): Promise<string | undefined> {
  if (targetType === 'product') {
    const [row] = await db.select({ sellerId: products.sellerId }).from(products).where(eq(products.id, targetId)).for('update');
    return row?.sellerId;
  }
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, targetId));
  return row?.id;
}

export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/reports',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['trust'],
        summary: 'Report a listing or an account',
        description:
          '`targetType` is `product` or `user` (messages join once conversations exist). One open report per reporter per target (409 for a second); ' +
          'nobody can report their own listing or account (403). A reported listing carries `reported: true` until an admin has looked at it.',
        security: bearerSecurity,
        body: createReportBody,
        response: { 201: z.object({ success: z.literal(true), message: z.string(), data: report }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const reporter = currentUser(request);
      const body = request.body;
      const created = await app.db.transaction(async (tx) => {
        const ownerId = await ownerOfTarget(tx, body.targetType, body.targetId);
        if (!ownerId) throw notFound(trustTexts.reportTargetNotFound);
        if (ownerId === reporter.id) throw forbidden(trustTexts.cannotReportOwn);
        const row = await insertReport(tx, reporter.id, body);
        if (!row) throw conflict(trustTexts.alreadyReported);
        if (body.targetType === 'product') await tx.update(products).set({ reported: true }).where(eq(products.id, body.targetId));
        return row;
      });
      return reply.status(201).send({ success: true as const, message: trustTexts.reportReceived, data: toReport(created) });
    },
  );

  app.get(
    '/admin/reports',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['trust'],
        summary: 'The moderation queue: open reports grouped by target, most-reported first (admin)',
        description: 'Each target with its open reports, its title, its owner and whether it is hidden, removed or its owner suspended. At most 100 targets.',
        security: bearerSecurity,
        response: { 200: listOf(reportedTarget), ...errorResponses },
      },
    },
    async () => ({ success: true as const, data: await listReportQueue(app.db) }),
  );

  app.post(
    '/admin/reports/:id/actions',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['trust'],
        summary: 'Act on a report: dismiss, hide, remove, suspend or restore (admin)',
        description:
          '`dismiss`: nothing wrong (an open report only). `hide`: the listing leaves every public list; its seller is told why at once and by e-mail. ' +
          '`remove`: the same, for good. `restore`: a hidden or removed listing returns. `suspend`: the account (or the listing’s seller) cannot sign in or list, ' +
          'every session ends at once, its listings are hidden, bookings of them still in play are declined and paid ones refunded through the payment provider. ' +
          'Every action needs a `reason`, resolves the target’s open reports and is written to the audit log.',
        security: bearerSecurity,
        params: idParams,
        body: moderationActionBody,
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const { action, reason } = request.body;
      const outcome = await app.db.transaction(async (tx) => {
        const result = await moderate(tx, { reportId: request.params.id, action, reason, publicUrl: app.config.publicUrl });
        await recordAdminAct(tx, request, {
          action: `report.${action}`,
          targetType: result.report.targetType,
          targetId: result.report.targetId,
          reason,
        });
        return result;
      });
      for (const payment of outcome.paymentsToRefund) {
        // The sale is cancelled and the refund owed is recorded; the refund retry makes it if this fails (decision 7).
        await refundPayment({ db: app.db, payments: app.payments }, payment).catch((error: unknown) =>
          request.log.error({ err: error, paymentId: payment.id }, 'refund of a suspended seller’s sale failed; the refund retry makes it'),
        );
      }
      return { success: true, message: trustTexts.moderationDone[action] };
    },
  );
};
