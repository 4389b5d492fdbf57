import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOf, ledgerMessages, listOf, payout, type Payout } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { errorResponses } from '../http/responses.ts';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { listPayoutsOf, payOutEveryBalance, requestPayout, retryPendingPayouts, type PayoutRow } from './payouts.ts';

const payoutRules = 'Payouts: decision 34.';

/** When the pending payouts are asked again: every five minutes (cron, UTC). */
export const retryPayoutsTask = defineRecurringTask('payouts.retry-pending', { schedule: '*/5 * * * *' });

/** PAYOUT_SCHEDULE as a cron schedule (UTC): daily at 06:00, or Mondays at 06:00. */
const payoutSchedules = { daily: '0 6 * * *', weekly: '0 6 * * 1' } as const;

const toPayout = (row: PayoutRow): Payout => ({
  _id: row.id,
  amountCents: row.amountCents,
  status: row.status,
  provider: row.provider,
  reference: row.reference,
  createdAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
});

/** A seller's payouts: on request, on the schedule, and the retry of those a crash or a failure left pending. */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, provider: app.payouts, log: app.log };
  app.jobs.handle(retryPayoutsTask, async () => {
    await retryPendingPayouts(deps);
  });
  if (app.config.payoutSchedule !== 'manual') {
    const scheduled = defineRecurringTask('payouts.pay-out-balances', { schedule: payoutSchedules[app.config.payoutSchedule] });
    app.jobs.handle(scheduled, async () => {
      await payOutEveryBalance(deps);
    });
  }

  app.post(
    '/me/payouts',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Pay out your available balance now (seller)',
        description:
          'The whole available balance, in one payout, through the payout provider (the simulated one unless Stripe is configured). ' +
          `Nothing available answers 409. Two requests at once make one payout; the other answers 409. ${payoutRules}`,
        response: { 201: createdOf(payout), ...errorResponses },
      },
    },
    async (request, reply) => {
      const made = await requestPayout(deps, currentUser(request).id);
      return reply.status(201).send({ success: true as const, message: ledgerMessages.payoutRequested, data: toPayout(made) });
    },
  );

  app.get(
    '/me/payouts',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Your payouts, newest first (seller)',
        description: `The latest 100, each with its amount, status (pending, paid, failed) and the provider’s reference. ${payoutRules}`,
        response: { 200: listOf(payout), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, data: (await listPayoutsOf(app.db, currentUser(request).id)).map(toPayout) }),
  );
};
