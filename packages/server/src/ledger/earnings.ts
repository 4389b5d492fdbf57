import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { EarningsEntry, FinanceOverview, SaleProblem } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { bookings, ledgerAccounts, ledgerEntries, ledgerTransactions, payouts, saleFunds, saleProblems, users } from '../db/schema/index.ts';
import { balancesOf, ledgerTotals } from './ledger.ts';

/** Entries of a seller's earnings per page. */
export const EARNINGS_PAGE_SIZE = 50;
/** Weeks the earnings chart shows. */
export const EARNINGS_WEEKS = 12;

/**
 * A seller's entries, one per movement as people understand it. A release, a payout and a payout's
 * reversal move money between two of the seller's balances (held or paid out, and available):
 * each shows once, as what it did to the available balance. A charge and a refund before the
 * release touch the held balance only.
 */
const sellerEntries = (sellerId: string) =>
  and(
    eq(ledgerAccounts.sellerId, sellerId),
    or(eq(ledgerAccounts.kind, 'available'), and(eq(ledgerAccounts.kind, 'held'), inArray(ledgerTransactions.kind, ['charge', 'refund']))),
  );

const entryColumns = {
  id: ledgerEntries.id,
  kind: ledgerTransactions.kind,
  account: ledgerAccounts.kind,
  amountCents: ledgerEntries.amountCents,
  bookingId: ledgerTransactions.bookingId,
  productName: ledgerTransactions.productName,
  payoutId: ledgerTransactions.payoutId,
  createdAt: ledgerTransactions.createdAt,
};

type EntryRow = { id: number; kind: EarningsEntry['kind']; account: string; amountCents: number; bookingId: string | null; productName: string | null; payoutId: string | null; createdAt: Date };

const toEntry = (row: EntryRow): EarningsEntry => ({
  _id: String(row.id),
  kind: row.kind,
  account: row.account as EarningsEntry['account'],
  amountCents: row.amountCents,
  bookingId: row.bookingId,
  productName: row.productName,
  payoutId: row.payoutId,
  createdAt: row.createdAt.toISOString(),
});

function entriesOf(db: Executor) {
  return db
    .select(entryColumns)
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId));
}

/** A seller's balances, the sales still held for them, the weekly chart and a page of entries, newest first. */
export async function earningsOf(db: Executor, sellerId: string, cursor?: string) {
  const balances = await balancesOf(db, sellerId);
  const held = await db
    .select({ bookingId: saleFunds.bookingId, productName: bookings.productName, amountCents: saleFunds.amountCents, feeCents: saleFunds.feeCents, state: saleFunds.state, releaseAt: saleFunds.releaseAt })
    .from(saleFunds)
    .innerJoin(bookings, eq(bookings.id, saleFunds.bookingId))
    .where(and(eq(saleFunds.sellerId, sellerId), inArray(saleFunds.state, ['held', 'frozen'])))
    .orderBy(saleFunds.releaseAt, saleFunds.changedAt);
  const rows = await entriesOf(db)
    .where(and(sellerEntries(sellerId), cursor ? sql`${ledgerEntries.id} < ${cursor}::bigint` : undefined))
    .orderBy(desc(ledgerEntries.id))
    .limit(EARNINGS_PAGE_SIZE + 1);
  const page = rows.slice(0, EARNINGS_PAGE_SIZE);
  // What became available to the seller each week: releases, less refunds taken after a release.
  const { rows: weekRows } = await db.execute<{ week: string; cents: string }>(sql`
    select to_char(weeks.week, 'YYYY-MM-DD') as week, coalesce(sum(e.amount_cents), 0)::text as cents
    from generate_series(date_trunc('week', now() at time zone 'UTC') - ${EARNINGS_WEEKS - 1} * interval '1 week',
                         date_trunc('week', now() at time zone 'UTC'), interval '1 week') as weeks(week)
    left join (${ledgerTransactions} t
      join ${ledgerEntries} e on e.transaction_id = t.id
      join ${ledgerAccounts} a on a.id = e.account_id and a.kind = 'available' and a.seller_id = ${sellerId}
    ) on t.kind in ('release', 'refund') and date_trunc('week', t.created_at at time zone 'UTC') = weeks.week
    group by weeks.week order by weeks.week`);
  return {
    currency: 'USD' as const,
    ...balances,
    held: held.map((sale) => ({
      _id: sale.bookingId,
      productName: sale.productName,
      amountCents: sale.amountCents - sale.feeCents,
      fundsState: sale.state,
      releaseAt: sale.releaseAt?.toISOString() ?? null,
    })),
    weeks: weekRows.map((row) => ({ week: row.week, cents: Number(row.cents) })),
    entries: page.map(toEntry),
    nextCursor: rows.length > EARNINGS_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}

/** Every entry of a seller in a calendar month (UTC), oldest first. */
export async function statementOf(db: Executor, sellerId: string, month: string): Promise<EarningsEntry[]> {
  const start = new Date(`${month}-01T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const rows = await entriesOf(db)
    .where(and(sellerEntries(sellerId), gte(ledgerTransactions.createdAt, start), lt(ledgerTransactions.createdAt, end)))
    .orderBy(ledgerEntries.id);
  return rows.map(toEntry);
}

/** Every entry of a seller, oldest first: their part of an account's export (decision 44). */
export async function allEntriesOf(db: Executor, sellerId: string): Promise<EarningsEntry[]> {
  const rows = await entriesOf(db).where(sellerEntries(sellerId)).orderBy(ledgerEntries.id);
  return rows.map(toEntry);
}

/** The admin's overview: each total from the ledger, payouts made and failed, and the open problems. */
export async function financeOverview(db: Executor): Promise<FinanceOverview> {
  const { byKind, sumCents } = await ledgerTotals(db);
  const counts = await db.select({ status: payouts.status, count: sql<number>`count(*)::int` }).from(payouts).groupBy(payouts.status);
  const countOf = (status: string) => counts.find((row) => row.status === status)?.count ?? 0;
  const buyer = alias(users, 'buyer');
  const seller = alias(users, 'seller');
  const open = await db
    .select({
      id: saleProblems.id,
      bookingId: saleProblems.bookingId,
      productName: bookings.productName,
      buyerName: buyer.name,
      sellerName: seller.name,
      amountCents: saleFunds.amountCents,
      reason: saleProblems.reason,
      note: saleProblems.note,
      fundsState: saleFunds.state,
      openedAt: saleProblems.openedAt,
    })
    .from(saleProblems)
    .innerJoin(bookings, eq(bookings.id, saleProblems.bookingId))
    .innerJoin(saleFunds, eq(saleFunds.bookingId, saleProblems.bookingId))
    .innerJoin(buyer, eq(buyer.id, bookings.buyerId))
    .leftJoin(seller, eq(seller.id, saleFunds.sellerId))
    .where(isNull(saleProblems.resolvedAt))
    .orderBy(saleProblems.openedAt)
    .limit(100);
  return {
    _id: 'finance',
    currency: 'USD',
    heldCents: byKind.held,
    feesCents: byKind['platform-fees'],
    paidOutCents: byKind.payouts,
    payoutsPaid: countOf('paid'),
    payoutsFailed: countOf('failed'),
    refundedCents: byKind.refunds,
    openProblems: open.map(
      (row): SaleProblem => ({
        _id: row.id,
        bookingId: row.bookingId,
        productName: row.productName,
        buyerName: row.buyerName,
        sellerName: row.sellerName ?? '',
        amountCents: row.amountCents,
        reason: row.reason,
        note: row.note,
        fundsState: row.fundsState,
        openedAt: row.openedAt.toISOString(),
      }),
    ),
    ledgerSumCents: sumCents,
    balanced: sumCents === 0,
  };
}
