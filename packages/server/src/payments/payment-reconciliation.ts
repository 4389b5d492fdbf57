import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import { paymentRefusal } from '../sales/sale-transitions.ts';
import { fulfilPayment, type FulfilmentDependencies } from './fulfilment.ts';
import { paymentMetadataOf } from './payment-provider.ts';
import { findBookingById, findPayment, findProductForSale } from './payment-repository.ts';

const MINUTE = 60 * 1000;

/**
 * When an intent handed to a buyer is asked about, after it was handed out: a few minutes first
 * (a charge whose record never arrived is found then), then less and less often for a day.
 */
export const RECONCILE_DELAYS_MS = [5 * MINUTE, 30 * MINUTE, 6 * 60 * MINUTE, 24 * 60 * MINUTE] as const;

/** One job per intent, under its own key; `round` indexes RECONCILE_DELAYS_MS. */
export const reconcileIntentTask = defineTask<{ intentId: string; round: number }>('payments.reconcile-intent');
export const reconcileKeyOf = (provider: string, intentId: string) => `reconcile-intent:${provider}:${intentId}`;

async function scheduleCheck(db: Executor, provider: string, intentId: string, round: number) {
  await enqueueJob(db, reconcileIntentTask, { intentId, round }, {
    runAt: new Date(Date.now() + RECONCILE_DELAYS_MS[round]!),
    key: reconcileKeyOf(provider, intentId),
  });
}

/** Watches an intent just handed to a buyer; handing it out again starts the watch again. */
export async function watchIntent(db: Executor, provider: string, intentId: string): Promise<void> {
  await scheduleCheck(db, provider, intentId, 0);
}

export type Reconciliation = 'recorded' | 'fulfilled' | 'released' | 'waiting';

/**
 * Asks the provider about an intent whose payment the server has not recorded: a succeeded charge
 * is fulfilled as if its record had arrived (`fulfilPayment`: the sale, or the refund of a payment
 * that can no longer buy the piece). An intent that was not charged is released (no longer asked
 * about) once it cannot pay its booking any more, or after the last round; otherwise it is asked
 * about again later. A charge made after the release is still recorded by whichever call reports
 * it (the simulated confirm call, Stripe's webhook, POST /payment).
 */
export async function reconcileIntent(deps: FulfilmentDependencies, intentId: string, round: number): Promise<Reconciliation> {
  if (await findPayment(deps.db, deps.payments.name, intentId)) return 'recorded';
  const intent = await deps.payments.retrieveIntent(intentId);
  if (!intent) return 'released';
  if (intent.status === 'succeeded') {
    await fulfilPayment(deps, intent);
    return 'fulfilled';
  }
  const metadata = paymentMetadataOf(intent.metadata);
  const booking = metadata && (await findBookingById(deps.db, metadata.bookingId));
  const product = booking?.productId ? await findProductForSale(deps.db, booking.productId) : undefined;
  const payable = booking && !paymentRefusal(booking, product) && booking.agreedPriceCents === intent.amountCents;
  if (!payable || round + 1 >= RECONCILE_DELAYS_MS.length) return 'released';
  await scheduleCheck(deps.db, deps.payments.name, intentId, round + 1);
  return 'waiting';
}

/** Registers the intent checks with the job queue; a check that fails (provider down) is retried by the queue. */
export function registerIntentReconciliation(app: FastifyInstance) {
  app.jobs.handle(reconcileIntentTask, async ({ intentId, round }, job) => {
    const outcome = await reconcileIntent({ db: app.db, payments: app.payments, log: job.log }, intentId, round);
    if (outcome === 'fulfilled') job.log.info({ transactionId: intentId }, 'recorded a payment whose record never arrived');
  });
}
