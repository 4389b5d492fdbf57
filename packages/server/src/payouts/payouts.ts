import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ledgerMessages, notificationTexts, webRoutes } from '@furniture/contract';
import type { Database, Executor } from '../db/client.ts';
import { ledgerAccounts, ledgerEntries, payouts } from '../db/schema/index.ts';
import { conflict } from '../http/errors.ts';
import { balancesOf, recordPayout, recordReversal } from '../ledger/ledger.ts';
import { notify, usd } from '../notifications/notify.ts';
import { PayoutRefusedError, type PayoutProvider } from './payout-provider.ts';

/**
 * Payouts of sellers' available money (decision 34). A payout is never made twice for the same
 * money: the row and its ledger movement are written, under a per-seller lock, before the provider
 * is asked, and the provider is asked with the row's id as idempotency key. A crash between the
 * provider's answer and the record leaves the row pending; `retryPendingPayouts` asks again with
 * the same key and records the answer the provider already gave.
 */

export type PayoutRow = typeof payouts.$inferSelect;

export interface PayoutDependencies {
  db: Database;
  provider: PayoutProvider;
  log?: FastifyBaseLogger;
}

/** A pending payout younger than this is left to the request that made it. */
export const PAYOUT_RETRY_DELAY_SECONDS = 60;

export const payoutKeyOf = (payoutId: string) => `payout:${payoutId}`;

/**
 * Takes a seller's whole available balance into a new pending payout, with its ledger movement.
 * Two requests of one seller queue on the lock, and the second finds nothing left (409).
 */
async function startPayout(db: Database, provider: PayoutProvider, sellerId: string): Promise<PayoutRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${sellerId}`}, 0))`);
    const { availableCents } = await balancesOf(tx, sellerId);
    if (availableCents <= 0) throw conflict(ledgerMessages.nothingToPayOut);
    const [payout] = await tx.insert(payouts).values({ sellerId, amountCents: availableCents, provider: provider.name }).returning();
    await recordPayout(tx, { payoutId: payout!.id, sellerId, amountCents: availableCents });
    return payout!;
  });
}

/**
 * Asks the provider to pay a pending payout and records its answer: paid with its reference, or,
 * when the provider refuses, failed with the money back in the balance. Any other failure leaves it
 * pending for the retry.
 */
export async function sendPayout(deps: PayoutDependencies, payout: PayoutRow): Promise<PayoutRow> {
  let reference: string;
  try {
    ({ reference } = await deps.provider.payout({ sellerId: payout.sellerId, amountCents: payout.amountCents, idempotencyKey: payoutKeyOf(payout.id) }));
  } catch (error) {
    if (!(error instanceof PayoutRefusedError)) {
      // No answer: the payout stays pending, and the retry asks again with the same key.
      deps.log?.error({ err: error, payoutId: payout.id }, 'payout provider failed; the retry asks again');
      return payout;
    }
    return deps.db.transaction(async (tx) => {
      const [failed] = await tx
        .update(payouts)
        .set({ status: 'failed', failure: error.message })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'pending')))
        .returning();
      if (failed) await recordReversal(tx, { payoutId: payout.id, sellerId: payout.sellerId, amountCents: payout.amountCents });
      return failed ?? payout;
    });
  }
  return deps.db.transaction(async (tx) => {
    const [paid] = await tx
      .update(payouts)
      .set({ status: 'paid', reference, paidAt: new Date() })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'pending')))
      .returning();
    if (!paid) return (await tx.select().from(payouts).where(eq(payouts.id, payout.id)))[0]!;
    await notify(tx, {
      to: paid.sellerId,
      kind: 'payout-paid',
      text: notificationTexts.payoutPaid(usd(paid.amountCents / 100)),
      link: webRoutes.dashboard.earnings,
    });
    return paid;
  });
}

/** Why the provider cannot pay this seller yet (their Stripe account is not ready), or undefined. */
async function payoutRefusalFor(provider: PayoutProvider, sellerId: string): Promise<string | undefined> {
  const status = await provider.accountStatusOf(sellerId);
  if (status === 'ready') return undefined;
  return status === 'not-set-up' ? ledgerMessages.payoutAccountNotSetUp : ledgerMessages.payoutAccountDetailsNeeded;
}

/** "Pay out now": the seller's available balance, paid out; 409 while their payout account is not ready. */
export async function requestPayout(deps: PayoutDependencies, sellerId: string): Promise<PayoutRow> {
  const refusal = await payoutRefusalFor(deps.provider, sellerId);
  if (refusal) throw conflict(refusal);
  return sendPayout(deps, await startPayout(deps.db, deps.provider, sellerId));
}

/** The payouts still pending after a crash or a provider failure, asked again with their own keys. */
export async function retryPendingPayouts(deps: PayoutDependencies, delaySeconds = PAYOUT_RETRY_DELAY_SECONDS): Promise<PayoutRow[]> {
  const pending = await deps.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.status, 'pending'), lt(payouts.createdAt, sql`now() - make_interval(secs => ${delaySeconds})`)))
    .orderBy(payouts.createdAt)
    .limit(100);
  const settled = [];
  for (const payout of pending) {
    try {
      const sent = await sendPayout(deps, payout);
      if (sent.status !== 'pending') settled.push(sent);
    } catch (error) {
      deps.log?.error({ err: error, payoutId: payout.id }, 'payout still failing; the next round retries it');
    }
  }
  return settled;
}

/** The scheduled payout: every seller with money available is paid out. */
export async function payOutEveryBalance(deps: PayoutDependencies): Promise<PayoutRow[]> {
  const sellers = await deps.db
    .select({ sellerId: ledgerAccounts.sellerId })
    .from(ledgerAccounts)
    .innerJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
    .where(eq(ledgerAccounts.kind, 'available'))
    .groupBy(ledgerAccounts.sellerId)
    .having(sql`sum(${ledgerEntries.amountCents}) > 0`);
  const made = [];
  for (const { sellerId } of sellers) {
    try {
      // A seller whose Stripe account is not ready keeps the money until it is.
      if (await payoutRefusalFor(deps.provider, sellerId!)) continue;
      made.push(await requestPayout(deps, sellerId!));
    } catch (error) {
      // Paid out meanwhile on request, or the provider is failing: the next tick or the retry sees to it.
      deps.log?.warn({ err: error, sellerId }, 'scheduled payout not made');
    }
  }
  return made;
}

export async function listPayoutsOf(db: Executor, sellerId: string): Promise<PayoutRow[]> {
  return db.select().from(payouts).where(eq(payouts.sellerId, sellerId)).orderBy(desc(payouts.createdAt)).limit(100);
}
