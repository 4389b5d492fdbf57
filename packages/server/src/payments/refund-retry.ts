import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { refundPayment } from './fulfilment.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { findRefundsDue, lockPendingRefund, type PaymentRow } from './payment-repository.ts';

/** When the refunds still owed are retried: every five minutes (cron, UTC). */
export const REFUND_RETRY_SCHEDULE = '*/5 * * * *';

/**
 * A refund owed for less than this is left alone: the request that recorded it is refunding it
 * right now.
 */
export const REFUND_RETRY_DELAY_SECONDS = 60;

/** At most this many refunds per round; the next round takes the rest. */
export const REFUND_RETRY_BATCH = 100;

export interface RefundRetryDependencies {
  db: Database;
  payments: PaymentProvider;
  log?: FastifyBaseLogger;
}

export interface RefundRetryOptions {
  delaySeconds?: number;
  batchSize?: number;
  /** Ends the round after the payment in hand (the app is closing). */
  signal?: AbortSignal;
}

export interface RefundRetryRound {
  refunded: PaymentRow[];
  /** Still refund_pending: the provider failed, and the next round tries again. */
  failed: PaymentRow[];
}

/**
 * Refunds the payments that lost their product and are still owed back because the provider
 * failed when they were recorded, so that the money does not wait for the payment to arrive again.
 *
 * One payment at a time, each in its own transaction that locks its row with SKIP LOCKED: a round
 * on another app server skips the payment this one is refunding, and a payment refunded in the
 * meantime is no longer pending. The row lock is held across the provider's refund call (that
 * transaction touches nothing else); the refund itself is `refundPayment`, with the payment's own
 * idempotency key, so a repeated arrival refunding the same payment at the same moment is the
 * same one refund at the provider. A failed refund is logged and left for the next round.
 */
export async function retryPendingRefunds(deps: RefundRetryDependencies, options: RefundRetryOptions = {}): Promise<RefundRetryRound> {
  const due = await findRefundsDue(
    deps.db,
    deps.payments.name,
    options.delaySeconds ?? REFUND_RETRY_DELAY_SECONDS,
    options.batchSize ?? REFUND_RETRY_BATCH,
  );
  const round: RefundRetryRound = { refunded: [], failed: [] };
  for (const paymentId of due) {
    if (options.signal?.aborted) break;
    await deps.db.transaction(async (tx) => {
      const payment = await lockPendingRefund(tx, paymentId);
      if (!payment) return;
      try {
        round.refunded.push(await refundPayment({ db: tx, payments: deps.payments }, payment));
      } catch (error) {
        deps.log?.error(
          { err: error, transactionId: payment.transactionId, paymentId: payment.id },
          'retried refund of a payment owed back failed; the next round tries again',
        );
        round.failed.push(payment);
      }
    });
  }
  return round;
}

/** Every five minutes, on one app server, a round of `retryPendingRefunds`. */
export const retryRefundsTask = defineRecurringTask('payments.retry-refunds', { schedule: REFUND_RETRY_SCHEDULE });

/**
 * Registers the refund retry round with the job queue. A round that fails as a whole (the database
 * was unreachable) is retried by the queue; the next tick comes anyway. Closing the app lets the
 * round finish the payment in hand and stops it there.
 */
export function registerRefundRetries(app: FastifyInstance) {
  app.jobs.handle(retryRefundsTask, async (_tick, job) => {
    const { refunded, failed } = await retryPendingRefunds({ db: app.db, payments: app.payments, log: job.log }, { signal: job.signal });
    if (refunded.length + failed.length > 0) job.log.info({ refunded: refunded.length, failed: failed.length }, 'retried pending refunds');
  });
}
