import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { type FundsState, ledgerMessages, notificationTexts, type ReportProblemBody, webRoutes } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, saleFunds, saleProblems } from '../db/schema/index.ts';
import { conflict } from '../http/errors.ts';
import { enqueueJob, defineTask } from '../jobs/job-queue.ts';
import { recordCharge, recordRefund, recordRelease, type SaleMoney } from '../ledger/ledger.ts';
import { notify, usd } from '../notifications/notify.ts';

/**
 * Buyer protection (decision 33): a paid sale's money is held until the buyer confirms receipt, or
 * until RELEASE_AFTER_HOURS after the seller marks it handed over, unless the buyer reports a
 * problem first, which freezes it until an admin releases or refunds it. Each change here is one
 * with its ledger movement, in the caller's transaction, under the sale's locks.
 */

interface ReleasePayload {
  bookingId: string;
  /** ISO time the release was scheduled for: a job finding another one on the row does nothing. */
  releaseAt: string;
}
export const releaseFundsTask = defineTask<ReleasePayload>('sales.release-funds');

const releaseKey = (bookingId: string) => `release-funds:${bookingId}`;

type FundsRow = typeof saleFunds.$inferSelect;

/**
 * What a list of bookings shows of each one's protection, both sides alike: the state of its money,
 * when it is released, and whether a problem report is open. Read with `bookings` in the query.
 */
export const protectionColumns = {
  fundsState: sql<FundsState | null>`(select ${saleFunds.state} from ${saleFunds} where ${saleFunds.bookingId} = ${bookings.id})`,
  releaseAt: sql<Date | null>`(select ${saleFunds.releaseAt} from ${saleFunds} where ${saleFunds.bookingId} = ${bookings.id})`.mapWith(saleFunds.releaseAt) as SQL<Date | null>,
  problemOpen: sql<boolean>`exists (select from ${saleProblems} where ${saleProblems.bookingId} = ${bookings.id} and ${saleProblems.resolvedAt} is null)`,
};

/**
 * A booking's version as its protection shows it: the transactions that wrote the booking, its
 * funds and its problem reports, which the release job and the admins change without the booking.
 */
export const protectedBookingVersion = sql<string>`concat_ws('.', ${bookings}.xmin,
  (select ${saleFunds}.xmin from ${saleFunds} where ${saleFunds.bookingId} = ${bookings.id}),
  (select string_agg(${saleProblems}.xmin::text, '.') from ${saleProblems} where ${saleProblems.bookingId} = ${bookings.id}))`;

const moneyOf = (funds: FundsRow, productName: string): SaleMoney => ({
  bookingId: funds.bookingId,
  sellerId: funds.sellerId,
  productName,
  amountCents: funds.amountCents,
  feeCents: funds.feeCents,
});

export async function lockFunds(tx: Executor, bookingId: string): Promise<FundsRow | undefined> {
  const [row] = await tx.select().from(saleFunds).where(eq(saleFunds.bookingId, bookingId)).for('update');
  return row;
}

async function setFundsState(tx: Executor, bookingId: string, state: FundsState, releaseAt?: Date | null) {
  await tx
    .update(saleFunds)
    .set({ state, changedAt: new Date(), ...(releaseAt !== undefined ? { releaseAt } : {}) })
    .where(eq(saleFunds.bookingId, bookingId));
}

/** A sale was paid: its money is held, and the charge is in the ledger. */
export async function holdFunds(tx: Executor, sale: SaleMoney) {
  await tx.insert(saleFunds).values({ bookingId: sale.bookingId, sellerId: sale.sellerId, amountCents: sale.amountCents, feeCents: sale.feeCents });
  await recordCharge(tx, sale);
}

/** The piece was handed over: the money is released after `releaseAfterHours` unless the buyer speaks first. */
export async function scheduleRelease(tx: Executor, bookingId: string, releaseAfterHours: number) {
  const funds = await lockFunds(tx, bookingId);
  if (funds?.state !== 'held') return;
  const releaseAt = new Date(Date.now() + releaseAfterHours * 60 * 60 * 1000);
  await setFundsState(tx, bookingId, 'held', releaseAt);
  await enqueueJob(tx, releaseFundsTask, { bookingId, releaseAt: releaseAt.toISOString() }, { runAt: releaseAt, key: releaseKey(bookingId) });
}

/**
 * Releases a sale's money to its seller, if it is in one of the states `from` allows (held for the
 * buyer's word or the release job, frozen for an admin). Answers whether it did.
 */
export async function releaseFunds(tx: Executor, funds: FundsRow, productName: string, from: readonly FundsState[]): Promise<boolean> {
  if (!from.includes(funds.state)) return false;
  await setFundsState(tx, funds.bookingId, 'released');
  await recordRelease(tx, moneyOf(funds, productName));
  await notify(tx, {
    to: funds.sellerId,
    kind: 'funds-released',
    text: notificationTexts.fundsReleased(usd((funds.amountCents - funds.feeCents) / 100), productName),
    link: webRoutes.dashboard.earnings,
  });
  return true;
}

/** The release job's change: only money still held, with the release date the job was scheduled for. */
export async function releaseFundsWhenDue(tx: Executor, payload: ReleasePayload): Promise<boolean> {
  const funds = await lockFunds(tx, payload.bookingId);
  if (!funds?.releaseAt || funds.releaseAt.getTime() !== new Date(payload.releaseAt).getTime()) return false;
  const [booking] = await tx.select({ productName: bookings.productName }).from(bookings).where(eq(bookings.id, payload.bookingId));
  return releaseFunds(tx, funds, booking!.productName, ['held']);
}

/** A refunded sale's money goes back to the buyer: from what is held, or after its release from the seller's balance. */
export async function refundFunds(tx: Executor, bookingId: string, productName: string) {
  const funds = await lockFunds(tx, bookingId);
  // A sale paid before the ledger existed has no funds to move.
  if (!funds || funds.state === 'refunded') return;
  await setFundsState(tx, bookingId, 'refunded');
  await recordRefund(tx, moneyOf(funds, productName), funds.state === 'released');
  await tx.update(saleProblems).set({ resolvedAt: new Date(), resolution: 'refunded' }).where(and(eq(saleProblems.bookingId, bookingId), isNull(saleProblems.resolvedAt)));
}

/**
 * The buyer's "Something is wrong": money still held is frozen until an admin decides; money
 * already released stays with the seller unless the admin refunds it. One open report per sale.
 */
export async function openProblem(tx: Executor, bookingId: string, report: ReportProblemBody): Promise<string> {
  const funds = await lockFunds(tx, bookingId);
  if (!funds || (funds.state !== 'held' && funds.state !== 'released')) {
    if (funds?.state === 'frozen') throw conflict(ledgerMessages.problemAlreadyOpen);
    throw conflict(ledgerMessages.problemNotPossible);
  }
  const [open] = await tx.select({ id: saleProblems.id }).from(saleProblems).where(and(eq(saleProblems.bookingId, bookingId), isNull(saleProblems.resolvedAt)));
  if (open) throw conflict(ledgerMessages.problemAlreadyOpen);
  if (funds.state === 'held') await setFundsState(tx, bookingId, 'frozen');
  const [problem] = await tx.insert(saleProblems).values({ bookingId, reason: report.reason, note: report.note }).returning({ id: saleProblems.id });
  return problem!.id;
}
