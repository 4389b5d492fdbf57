import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { refundPayment } from './fulfilment.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { findRefundsDue, lockPendingRefund, type PaymentRow } from './payment-repository.ts';

/** How often each app server retries the refunds still owed. */
export const REFUND_RETRY_INTERVAL_MS = 5 * 60 * 1000;

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

/**
 * Runs `retryPendingRefunds` on every app server every REFUND_RETRY_INTERVAL_MS, one round at a
 * time; closing the app stops the timer and waits for the payment in hand.
 */
export function scheduleRefundRetries(app: FastifyInstance) {
  const closing = new AbortController();
  let round: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (round) return;
    round = retryPendingRefunds({ db: app.db, payments: app.payments, log: app.log }, { signal: closing.signal })
      .then(
        ({ refunded, failed }) => {
          if (refunded.length + failed.length > 0) app.log.info({ refunded: refunded.length, failed: failed.length }, 'retried pending refunds');
        },
        (error: unknown) => app.log.error({ err: error }, 'pending refund retry failed'),
      )
      .finally(() => {
        round = undefined;
      });
  }, REFUND_RETRY_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    closing.abort();
    await round;
  });
}
