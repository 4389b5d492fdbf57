import { inArray, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createDatabase } from '../db/client.ts';
import { nextOutcome } from '../jobs/job-clock.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { payments } from '../db/schema/index.ts';
import { fulfilPayment, refundKeyOf } from './fulfilment.ts';
import { paidIntents, paymentOf, withRefund } from '../../test/payment-fixtures.ts';
import type { RefundInput } from './payment-provider.ts';
import { retryPendingRefunds, retryRefundsTask } from './refund-retry.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

const connectionReset = async (): Promise<never> => {
  throw new Error('connection reset');
};

/**
 * Payments that lost their product while the provider could not refund them: stored as
 * refund_pending. Answers their transaction ids.
 */
async function pendingRefunds(count: number): Promise<string[]> {
  const simulated = new SimulatedPaymentProvider(t.db);
  const failing = withRefund(simulated, connectionReset);
  const [winner, ...losers] = (await paidIntents(t.db, simulated, count + 1)).intents;
  expect((await fulfilPayment({ db: t.db, payments: failing }, winner!)).outcome).toBe('sold');
  for (const loser of losers) expect((await fulfilPayment({ db: t.db, payments: failing }, loser)).outcome).toBe('refund-pending');
  for (const loser of losers) expect(await paymentOf(t.db, 'simulated', loser.id)).toMatchObject({ status: 'refund_pending', refundId: null });
  return losers.map((intent) => intent.id);
}

/** Dates the recording of these payments `seconds` into the past. */
async function age(transactionIds: string[], seconds: number) {
  await t.db
    .update(payments)
    .set({ createdAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(inArray(payments.transactionId, transactionIds));
}

/** The simulated provider, recording every refund asked of it. */
function recordingProvider(onRefund: (input: RefundInput, calls: RefundInput[]) => Promise<void> | void = () => undefined) {
  const simulated = new SimulatedPaymentProvider(t.db);
  const calls: RefundInput[] = [];
  const provider = withRefund(simulated, async (input) => {
    calls.push(input);
    await onRefund(input, calls);
    return simulated.refund(input);
  });
  return { simulated, calls, provider };
}

describe('retryPendingRefunds', () => {
  it('refunds a payment owed back for longer than the delay, with its own idempotency key, and records the refund id', async () => {
    const [id] = (await pendingRefunds(1)) as [string];
    await age([id], 2 * 60);
    const { simulated, calls, provider } = recordingProvider();

    const round = await retryPendingRefunds({ db: t.db, payments: provider });

    const refundId = await simulated.refundOf(id);
    expect(refundId).toMatch(/^re_sim_/);
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refunded', refundId });
    expect(calls).toEqual([{ intentId: id, idempotencyKey: refundKeyOf('simulated', id) }]);
    expect(round.refunded.map((payment) => payment.transactionId)).toEqual([id]);
    expect(round.failed).toEqual([]);
  });

  it('leaves a refund owed for less than the delay to the request that just recorded it', async () => {
    const [id] = (await pendingRefunds(1)) as [string];
    const { simulated, calls, provider } = recordingProvider();

    const round = await retryPendingRefunds({ db: t.db, payments: provider });
    expect(round).toEqual({ refunded: [], failed: [] });
    expect(calls).toEqual([]);
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refund_pending', refundId: null });
    expect(await simulated.refundOf(id)).toBeUndefined();

    // The same payment, once older than the delay, is the next round's.
    await age([id], 2 * 60);
    await retryPendingRefunds({ db: t.db, payments: provider });
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refunded', refundId: await simulated.refundOf(id) });
  });

  it('keeps a refund owed and logs it when the provider fails again; the next round makes it', async () => {
    const [id] = (await pendingRefunds(1)) as [string];
    await age([id], 2 * 60);
    const lines: Array<Record<string, unknown>> = [];
    const log = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } }).log;
    const simulated = new SimulatedPaymentProvider(t.db);

    const failedRound = await retryPendingRefunds({ db: t.db, payments: withRefund(simulated, connectionReset), log });
    expect(failedRound.refunded).toEqual([]);
    expect(failedRound.failed.map((payment) => payment.transactionId)).toEqual([id]);
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refund_pending', refundId: null });
    expect(await simulated.refundOf(id)).toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        transactionId: id,
        err: expect.objectContaining({ message: 'connection reset' }),
        msg: 'retried refund of a payment owed back failed; the next round tries again',
      }),
    ]);

    const nextRound = await retryPendingRefunds({ db: t.db, payments: simulated, log });
    expect(nextRound.refunded.map((payment) => payment.transactionId)).toEqual([id]);
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refunded', refundId: await simulated.refundOf(id) });
  });

  it('refunds each payment once when two app servers run a round at the same moment', async () => {
    const ids = await pendingRefunds(6);
    await age(ids, 2 * 60);
    // The first refund asked waits until a second one is asked: the two rounds are then refunding
    // at the same moment, each holding a payment, and they must be holding different ones.
    let secondAsked!: () => void;
    const bothAsked = new Promise<void>((resolve) => (secondAsked = resolve));
    const { simulated, calls, provider } = recordingProvider(async (_input, sofar) => {
      if (sofar.length === 1) await bothAsked;
      if (sofar.length === 2) secondAsked();
    });
    const secondServer = createDatabase(t.database.url, 2);

    const rounds = await Promise.all([
      retryPendingRefunds({ db: t.db, payments: provider }),
      retryPendingRefunds({ db: secondServer.db, payments: provider }),
    ]).finally(() => secondServer.pool.end());

    const asked = calls.map((call) => call.intentId);
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.sort()).toEqual([...ids].sort());
    const refundedBy = rounds.map((round) => round.refunded.map((payment) => payment.transactionId));
    expect(refundedBy[0]!.length).toBeGreaterThan(0);
    expect(refundedBy[1]!.length).toBeGreaterThan(0);
    expect(refundedBy.flat().sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refunded', refundId: await simulated.refundOf(id) });
    }
  });
});

describe('the refund retry job', () => {
  it('runs every five minutes on the job queue; a tick refunds what is owed', async () => {
    expect(retryRefundsTask.recurrence).toEqual({ schedule: '*/5 * * * *' });
    const [id] = (await pendingRefunds(1)) as [string];
    await age([id], 2 * 60);

    // What the schedule does at a tick: one job of the task, which one app server's worker runs.
    const done = nextOutcome(t.app, (outcome) => outcome.task === retryRefundsTask.name);
    await enqueueJob(t.db, retryRefundsTask, { tick: new Date().toISOString() });
    expect(await done).toMatchObject({ status: 'succeeded', attempt: 1 });

    const simulated = new SimulatedPaymentProvider(t.db);
    expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refunded', refundId: await simulated.refundOf(id) });
  });

  it('stops a round after the payment in hand when its job is asked to stop (the app is closing)', async () => {
    const ids = await pendingRefunds(3);
    await age(ids, 2 * 60);
    const closing = new AbortController();
    const { calls, provider } = recordingProvider(() => closing.abort());

    const round = await retryPendingRefunds({ db: t.db, payments: provider }, { signal: closing.signal });

    expect(calls).toHaveLength(1);
    expect(round.refunded.map((payment) => payment.transactionId)).toEqual([calls[0]!.intentId]);
    const stillOwed = ids.filter((id) => id !== calls[0]!.intentId);
    for (const id of stillOwed) expect(await paymentOf(t.db, 'simulated', id)).toMatchObject({ status: 'refund_pending' });
  });
});
