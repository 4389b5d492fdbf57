import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { LedgerAccountKind, LedgerTransactionKind, PlatformFee } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../db/schema/index.ts';

/**
 * The double-entry ledger (decision 33): every movement of money is one transaction of entries
 * between accounts, summing to zero, written in the database transaction of the change that causes
 * it. Balances are sums of entries; nothing here updates or deletes a row (the database refuses).
 */

export interface AccountRef {
  kind: LedgerAccountKind;
  /** The seller whose money it is; absent for the platform's own accounts. */
  sellerId?: string;
}

interface Movement {
  kind: LedgerTransactionKind;
  bookingId?: string;
  payoutId?: string;
  productName?: string;
  entries: { account: AccountRef; amountCents: number }[];
}

export class UnbalancedMovementError extends Error {}

/** The id of an account, made on its first use. */
async function accountIdOf(tx: Executor, account: AccountRef): Promise<number> {
  const sellerId = account.sellerId ?? null;
  await tx.insert(ledgerAccounts).values({ kind: account.kind, sellerId }).onConflictDoNothing();
  const [row] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, account.kind), sellerId ? eq(ledgerAccounts.sellerId, sellerId) : isNull(ledgerAccounts.sellerId)));
  return row!.id;
}

/**
 * Writes one balanced movement. Entries of zero (a sale without a fee) are left out. Call it with
 * the transaction of the change that moves the money; the database checks the balance again when
 * that transaction commits.
 */
export async function postMovement(tx: Executor, movement: Movement): Promise<void> {
  const entries = movement.entries.filter((entry) => entry.amountCents !== 0);
  if (entries.some((entry) => !Number.isSafeInteger(entry.amountCents))) throw new UnbalancedMovementError('amounts must be whole cents');
  const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  if (total !== 0) throw new UnbalancedMovementError(`a ${movement.kind} must balance; its entries sum to ${total} cents`);
  if (entries.length === 0) return;
  const [transaction] = await tx
    .insert(ledgerTransactions)
    .values({ kind: movement.kind, bookingId: movement.bookingId, payoutId: movement.payoutId, productName: movement.productName })
    .returning({ id: ledgerTransactions.id });
  const rows = [];
  for (const entry of entries) {
    rows.push({ transactionId: transaction!.id, accountId: await accountIdOf(tx, entry.account), amountCents: entry.amountCents });
  }
  await tx.insert(ledgerEntries).values(rows);
}

/**
 * The platform's fee on a sale at `price` (an SQL numeric of dollars), in cents: the one
 * computation of it on the server, fixed on a booking when the booking is made (decision 33) and
 * charged as it is when the booking is paid. The same rule as the contract's `platformFeeCents`,
 * which the browser shows; a test holds the two equal.
 */
export function platformFeeSql(price: SQL, fee: PlatformFee): SQL<number> {
  const hundredths = Math.round(fee.percent * 100);
  return sql<number>`least(round(${price} * ${hundredths}::int / 100) + ${fee.fixedCents}::int, ${price} * 100)::int`;
}

/** A sale's money: what the buyer paid, and the platform's fee out of it. */
export interface SaleMoney {
  bookingId: string;
  sellerId: string;
  productName: string;
  amountCents: number;
  feeCents: number;
}

const held = (sellerId: string): AccountRef => ({ kind: 'held', sellerId });
const heldFees: AccountRef = { kind: 'held' };
const available = (sellerId: string): AccountRef => ({ kind: 'available', sellerId });
const paidOut = (sellerId: string): AccountRef => ({ kind: 'payouts', sellerId });

const saleOf = (sale: SaleMoney) => ({ bookingId: sale.bookingId, productName: sale.productName });

/** A paid sale: the buyer's money is held, the seller's share and the platform's fee apart. */
export async function recordCharge(tx: Executor, sale: SaleMoney) {
  const share = sale.amountCents - sale.feeCents;
  await postMovement(tx, {
    kind: 'charge',
    ...saleOf(sale),
    entries: [
      { account: { kind: 'buyer-payments' }, amountCents: -sale.amountCents },
      { account: held(sale.sellerId), amountCents: share },
      { account: heldFees, amountCents: sale.feeCents },
    ],
  });
}

/** The held money goes to the seller's available balance, and the fee to the platform. */
export async function recordRelease(tx: Executor, sale: SaleMoney) {
  const share = sale.amountCents - sale.feeCents;
  await postMovement(tx, {
    kind: 'release',
    ...saleOf(sale),
    entries: [
      { account: held(sale.sellerId), amountCents: -share },
      { account: available(sale.sellerId), amountCents: share },
      { account: heldFees, amountCents: -sale.feeCents },
      { account: { kind: 'platform-fees' }, amountCents: sale.feeCents },
    ],
  });
}

/**
 * The buyer's money back: before the release from what is held; after it from the seller's
 * available balance (which may go negative: the next payout nets it) and the platform's fees.
 */
export async function recordRefund(tx: Executor, sale: SaleMoney, released: boolean) {
  const share = sale.amountCents - sale.feeCents;
  await postMovement(tx, {
    kind: 'refund',
    ...saleOf(sale),
    entries: [
      { account: released ? available(sale.sellerId) : held(sale.sellerId), amountCents: -share },
      { account: released ? { kind: 'platform-fees' } : heldFees, amountCents: -sale.feeCents },
      { account: { kind: 'refunds' }, amountCents: sale.amountCents },
    ],
  });
}

/** A payout asked of the provider: the money leaves the seller's available balance. */
export async function recordPayout(tx: Executor, payout: { payoutId: string; sellerId: string; amountCents: number }) {
  await postMovement(tx, {
    kind: 'payout',
    payoutId: payout.payoutId,
    entries: [
      { account: available(payout.sellerId), amountCents: -payout.amountCents },
      { account: paidOut(payout.sellerId), amountCents: payout.amountCents },
    ],
  });
}

/** A payout the provider refused: its money is back in the seller's available balance. */
export async function recordReversal(tx: Executor, payout: { payoutId: string; sellerId: string; amountCents: number }) {
  await postMovement(tx, {
    kind: 'reversal',
    payoutId: payout.payoutId,
    entries: [
      { account: paidOut(payout.sellerId), amountCents: -payout.amountCents },
      { account: available(payout.sellerId), amountCents: payout.amountCents },
    ],
  });
}

export interface SellerBalances {
  pendingCents: number;
  availableCents: number;
  paidOutCents: number;
}

/** A seller's balances: held for them, available to pay out, and paid out. */
export async function balancesOf(db: Executor, sellerId: string): Promise<SellerBalances> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, cents: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerAccounts)
    .innerJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
    .where(and(eq(ledgerAccounts.sellerId, sellerId), inArray(ledgerAccounts.kind, ['held', 'available', 'payouts'])))
    .groupBy(ledgerAccounts.kind);
  const of = (kind: LedgerAccountKind) => Number(rows.find((row) => row.kind === kind)?.cents ?? 0);
  return { pendingCents: of('held'), availableCents: of('available'), paidOutCents: of('payouts') };
}

/** Every account kind's total over all sellers and the platform, and the sum of every entry (0 when the books balance). */
export async function ledgerTotals(db: Executor): Promise<{ byKind: Record<LedgerAccountKind, number>; sumCents: number }> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, cents: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerAccounts)
    .innerJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
    .groupBy(ledgerAccounts.kind);
  const byKind = { 'buyer-payments': 0, held: 0, available: 0, 'platform-fees': 0, payouts: 0, refunds: 0 } as Record<LedgerAccountKind, number>;
  for (const row of rows) byKind[row.kind] = Number(row.cents);
  const [sum] = await db.select({ cents: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` }).from(ledgerEntries);
  return { byKind, sumCents: Number(sum!.cents) };
}
