import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  appealAnswerBody,
  appealBody,
  createReportBody,
  type CreateReportBody,
  dataOf,
  idParams,
  liftSuspensionBody,
  listingAppeal,
  listOf,
  moderationActionBody,
  report,
  REPORT_CONTEXT_MESSAGES,
  reportContext,
  reportedTarget,
  reportQueueQuery,
  trustTexts,
} from '@furniture/contract';
import { recordAdminAct } from '../audit/audit-log.ts';
import type { Executor } from '../db/client.ts';
import { products, users } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';
import { refundPayment } from '../payments/fulfilment.ts';
import { toAppeal } from '../products/appeal-repository.ts';
import { findReportableMessage, threadExcerpt } from './message-reports.ts';
import { answerAppeal, appealListing, liftSuspension, moderate } from './moderation.ts';
import { findReport, insertReport, listReportQueue, toReport } from './report-repository.ts';

/**
 * The owner of a report's target: a listing's seller, the account itself, or a message's author;
 * undefined when there is no such target, or it is a message of a thread the reporter is not in.
 */
async function ownerOfTarget(db: Executor, reporterId: string, { targetType, targetId }: CreateReportBody): Promise<string | undefined> {
  if (targetType === 'product') {
    const [row] = await db.select({ sellerId: products.sellerId }).from(products).where(eq(products.id, targetId)).for('update');
    return row?.sellerId;
  }
  if (targetType === 'message') {
    const message = await findReportableMessage(db, targetId, reporterId);
    if (message?.removedAt) throw conflict(trustTexts.messageAlreadyRemoved);
    return message?.senderId;
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
        summary: 'Report a listing, an account or a message',
        description:
          '`targetType` is `product`, `user` or `message`. One open report per reporter per target (409 for a second); ' +
          'nobody can report their own listing or account (403). A reported listing carries `reported: true` until an admin has looked at it. ' +
          'A message can be reported only by the other participant of its thread: its author gets 403, anyone else 404 as for a message that does not exist, ' +
          'and a message already removed by moderation 409.',
        body: createReportBody,
        response: { 201: z.object({ success: z.literal(true), message: z.string(), data: report }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const reporter = currentUser(request);
      const body = request.body;
      const created = await app.db.transaction(async (tx) => {
        const ownerId = await ownerOfTarget(tx, reporter.id, body);
        if (!ownerId) throw notFound(trustTexts.reportTargetNotFound);
        if (ownerId === reporter.id) throw forbidden(body.targetType === 'message' ? trustTexts.cannotReportOwnMessage : trustTexts.cannotReportOwn);
        const row = await insertReport(tx, reporter.id, body);
        if (!row) throw conflict(trustTexts.alreadyReported);
        // Counted with the report: a refused one is not.
        await enforceLimit(tx, { limit: RATE_LIMITS.reportsPerAccount, subject: reporter.id });
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
        summary: 'The moderation queue: reports grouped by target, appealed listings and the most-reported first (admin)',
        description:
          '`status=open` (the default): listings whose seller appealed their hiding first, then targets with open reports, most-reported first. ' +
          '`status=closed`: targets with reports already dismissed or acted on, the latest handled first. ' +
          'Each target with its reports in that status, its title, its owner, whether it is hidden, removed or its owner suspended, ' +
          'the latest appeal of a listing, and its history: its other reports and the admin acts on it with their reasons and who acted, newest first. At most 100 targets. ' +
          'A reported message comes with its text (as written, even once removed), its author and its thread’s product; ' +
          'showing it is an admin’s read of a private thread, so each answer writes one `report.read-message` entry per message to the audit log.',
        querystring: reportQueueQuery,
        response: { 200: listOf(reportedTarget), ...errorResponses },
      },
    },
    async (request) => {
      const targets = await app.db.transaction(async (tx) => {
        const queue = await listReportQueue(tx, request.query.status);
        for (const { message } of queue) {
          if (message) await recordAdminAct(tx, request, { action: 'report.read-message', targetType: 'message', targetId: message._id, targetLabel: message.productName });
        }
        return queue;
      });
      return { success: true as const, data: targets };
    },
  );

  app.get(
    '/admin/reports/:id/context',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['trust'],
        summary: 'The conversation around a reported message (admin)',
        description:
          `For a report of a message, open or resolved: up to ${REPORT_CONTEXT_MESSAGES} messages of its thread before it and as many after, oldest first, as written. ` +
          'Threads are otherwise private to their two participants (404 for anyone else, admins included); this read is the one exception, ' +
          'and each one writes a `report.read-thread` entry to the audit log in the same transaction. A report of a listing or an account answers 404.',
        params: idParams,
        response: { 200: dataOf(reportContext), ...errorResponses },
      },
    },
    async (request) => {
      const reportId = request.params.id;
      const context = await app.db.transaction(async (tx) => {
        const found = await findReport(tx, reportId);
        if (!found) throw notFound(trustTexts.reportUnknown);
        if (found.targetType !== 'message') throw notFound(trustTexts.notAMessageReport);
        const excerpt = await threadExcerpt(tx, found.id, found.targetId);
        if (!excerpt) throw notFound(trustTexts.reportTargetNotFound);
        await recordAdminAct(tx, request, {
          action: 'report.read-thread',
          targetType: 'conversation',
          targetId: excerpt.conversationId,
          targetLabel: excerpt.productName,
          reason: trustTexts.threadReadReason(found.id),
        });
        return excerpt;
      });
      return { success: true as const, data: context };
    },
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
          'For a report of a message, `remove` replaces its text for both participants by a notice that moderation removed it (the text is kept for the record), ' +
          '`suspend` suspends its author, and `hide` and `restore` answer 409. ' +
          '`remove`: the same, for good. Both close the open offers on it, and answer a pending appeal (refused). ' +
          '`restore`: a hidden or removed listing returns (a pending appeal is granted, the seller told); of an account, its suspension is lifted (see `/admin/users/{id}/lift-suspension`). ' +
          '`suspend`: the account (or the listing’s seller) cannot sign in or list, ' +
          'every session ends at once, its listings are hidden and their open offers closed, bookings of them still in play are declined and paid ones refunded through the payment provider; its owner is told why by e-mail. ' +
          'Every action needs a `reason`, resolves the target’s open reports and is written to the audit log.',
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
      const removedMessage = outcome.report.targetType === 'message' && action === 'remove';
      return { success: true, message: removedMessage ? trustTexts.messageRemoved : trustTexts.moderationDone[action] };
    },
  );

  app.post(
    '/products/:id/appeal',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['trust'],
        summary: 'Appeal the hiding of one of my listings, once',
        description:
          'The listing’s seller only (403 for anyone else), while an admin has it hidden (409 when it is not hidden, removed, or hidden because its seller was suspended). ' +
          'One appeal per hiding: a second answers 409. The appeal brings the listing to the top of the moderation queue; the admin’s answer reaches the seller by e-mail and in My Products.',
        params: idParams,
        body: appealBody,
        response: { 201: z.object({ success: z.literal(true), message: z.string(), data: listingAppeal }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const seller = currentUser(request);
      const appeal = await app.db.transaction((tx) =>
        appealListing(tx, { productId: request.params.id, sellerId: seller.id, text: request.body.text }),
      );
      return reply.status(201).send({ success: true as const, message: trustTexts.appealSent, data: toAppeal(appeal) });
    },
  );

  app.post(
    '/admin/appeals/:id/answer',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['trust'],
        summary: 'Answer a seller’s appeal: restore the listing or keep it hidden (admin)',
        description:
          '`restore`: the listing returns to the market. `keep`: it stays hidden, and that hiding cannot be appealed again. ' +
          'The seller is told either way, with the `reason`. 409 when the appeal was already answered. Written to the audit log.',
        params: idParams,
        body: appealAnswerBody,
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const { answer, reason } = request.body;
      await app.db.transaction(async (tx) => {
        const product = await answerAppeal(tx, { appealId: request.params.id, answer, reason, publicUrl: app.config.publicUrl });
        await recordAdminAct(tx, request, { action: `appeal.${answer}`, targetType: 'product', targetId: product.id, targetLabel: product.productName, reason });
      });
      return { success: true, message: trustTexts.appealAnswered[answer] };
    },
  );

  app.post(
    '/admin/users/:id/lift-suspension',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['trust'],
        summary: 'Lift an account’s suspension (admin)',
        description:
          'The account can sign in again (its owner is told by e-mail, with the `reason`), and its listings hidden by the suspension return; those hidden or removed for themselves stay out. ' +
          'Bookings the suspension cancelled and refunds it made stay as they are. 409 when the account is not suspended. Written to the audit log with the `reason`.',
        params: idParams,
        body: liftSuspensionBody,
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const { reason } = request.body;
      await app.db.transaction(async (tx) => {
        const account = await liftSuspension(tx, request.params.id, reason, app.config.publicUrl);
        await recordAdminAct(tx, request, { action: 'user.lift-suspension', targetType: 'user', targetId: account.id, targetLabel: account.email, reason });
      });
      return { success: true, message: trustTexts.suspensionLifted };
    },
  );
};
