import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createdOf, idParams, ledgerMessages, reportProblemBody, saleMessages, successMessage } from '@furniture/contract';
import { recordAdminAct } from '../audit/audit-log.ts';
import { currentUser } from '../http/access.ts';
import { errorResponses } from '../http/responses.ts';
import { type RefundPayment, reportProblem, resolveProblem } from './sale-transitions.ts';

const protectionRules = 'Buyer protection: decision 33.';

/** Buyer protection's calls: the buyer's report of a problem, and the admin's decision on it. */
export const buyerProtectionRoutes: FastifyPluginAsyncZod<{ refundPayment: RefundPayment }> = async (app, { refundPayment }) => {
  app.post(
    '/bookings/:id/problem',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['sales'],
        summary: 'Report a problem with a paid sale: “Something is wrong” (buyer)',
        description:
          'A reason and a note. Money still held is frozen and the case goes to the admins’ queue, where an admin releases it to the seller or refunds it; ' +
          'money already released stays with the seller unless an admin refunds it. Only the booking’s buyer can (404 for anyone else); ' +
          `a booking not paid, already refunded, or with a report still open answers 409. ${protectionRules}`,
        params: idParams,
        body: reportProblemBody,
        response: { 201: createdOf(z.object({ _id: z.string() })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const problemId = await app.db.transaction((tx) =>
        reportProblem(tx, { bookingId: request.params.id, callerId: currentUser(request).id, report: request.body }),
      );
      return reply.status(201).send({ success: true as const, message: ledgerMessages.problemReported, data: { _id: problemId } });
    },
  );

  const decisions = {
    release: { summary: 'Release a reported sale’s money to its seller (admin)', done: ledgerMessages.problemReleased },
    refund: { summary: 'Refund a reported sale to its buyer, which cancels the sale (admin)', done: ledgerMessages.problemRefunded },
  } as const;
  for (const [decision, step] of Object.entries(decisions) as ['release' | 'refund', (typeof decisions)['release']][]) {
    app.post(
      `/admin/problems/:id/${decision}`,
      {
        config: { access: ['admin'] },
        schema: {
          tags: ['sales'],
          summary: step.summary,
          description:
            'For an open problem (404 otherwise, also when another admin decided first). A refund after the release takes the money from the seller’s ' +
            `available balance, which may go negative until their next sale. Recorded in the audit log. ${protectionRules}`,
          params: idParams,
          response: { 200: successMessage, ...errorResponses },
        },
      },
      async (request) => {
        const change = await app.db.transaction(async (tx) => {
          const resolved = await resolveProblem(tx, request.params.id, decision);
          await recordAdminAct(tx, request, {
            action: decision === 'release' ? 'problem.release' : 'problem.refund',
            targetType: 'booking',
            targetId: resolved.bookingId,
            targetLabel: resolved.productName,
          });
          return resolved;
        });
        if (change.paymentToRefund) {
          try {
            await refundPayment(change.paymentToRefund);
          } catch (error) {
            request.log.error({ err: error, paymentId: change.paymentToRefund.id }, 'refund of a reported sale failed; the refund retry makes it');
            return { success: true, message: saleMessages.refundPending };
          }
        }
        return { success: true, message: step.done };
      },
    );
  }
};
