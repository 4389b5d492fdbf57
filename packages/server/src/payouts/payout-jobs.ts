import type { FastifyInstance } from 'fastify';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { payOutEveryBalance, retryPendingPayouts } from './payouts.ts';

/** When the pending payouts are asked again: every five minutes (cron, UTC). */
export const retryPayoutsTask = defineRecurringTask('payouts.retry-pending', { schedule: '*/5 * * * *' });

/** PAYOUT_SCHEDULE as a cron schedule (UTC): daily at 06:00, or Mondays at 06:00. */
const payoutSchedules = { daily: '0 6 * * *', weekly: '0 6 * * 1' } as const;

/** The payout jobs (decision 34): the retry of payouts a crash or a failure left pending, and the scheduled payout. */
export function registerPayouts(app: FastifyInstance) {
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
}
