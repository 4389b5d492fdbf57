import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { ledgerEntries, ledgerTransactions } from '../db/schema/index.ts';
import { platformFeeCents, PRICE_MAX } from '@furniture/contract';
import { balancesOf, ledgerTotals, platformFeeSql, postMovement, recordCharge, recordPayout, recordRefund, recordRelease, type SaleMoney } from './ledger.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** The database's own message for a refused statement (drizzle wraps it as the cause). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  const error = await statement.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) return 'not refused';
  return error.cause instanceof Error ? error.cause.message : error.message;
}

const sale = (sellerId: string, amountCents: number, feeCents: number): SaleMoney => ({
  bookingId: randomUUID(),
  sellerId,
  productName: 'Oak chair',
  amountCents,
  feeCents,
});

describe('the ledger', () => {
  it('refuses to change or remove what it holds, whoever asks', async () => {
    const sellerId = randomUUID();
    await database.db.transaction((tx) => recordCharge(tx, sale(sellerId, 10_000, 1_000)));
    expect(await refusal(database.db.execute(sql`update ${ledgerEntries} set amount_cents = 1`))).toMatch(/append-only: UPDATE on ledger_entries/);
    expect(await refusal(database.db.execute(sql`delete from ${ledgerEntries}`))).toMatch(/append-only: DELETE on ledger_entries/);
    expect(await refusal(database.db.execute(sql`truncate ledger_entries, ledger_transactions, ledger_accounts`))).toMatch(/append-only: TRUNCATE/);
    expect(await refusal(database.db.execute(sql`update ${ledgerTransactions} set kind = 'refund'`))).toMatch(/append-only: UPDATE on ledger_transactions/);
    expect(await refusal(database.db.execute(sql`update ledger_accounts set seller_id = null`))).toMatch(/append-only: UPDATE on ledger_accounts/);
    expect(await balancesOf(database.db, sellerId)).toEqual({ pendingCents: 9_000, availableCents: 0, paidOutCents: 0 });
  });

  it('refuses a transaction whose entries do not sum to zero, in the app and in the database', async () => {
    const sellerId = randomUUID();
    const unbalanced = database.db.transaction((tx) =>
      postMovement(tx, { kind: 'charge', entries: [{ account: { kind: 'held', sellerId }, amountCents: 500 }] }),
    );
    expect(await refusal(unbalanced)).toMatch(/must balance; its entries sum to 500 cents/);

    // Written around the app's check: the database refuses it when the transaction commits.
    const written = database.db.transaction(async (tx) => {
      await recordCharge(tx, sale(sellerId, 2_000, 200));
      const [row] = await tx.select({ id: ledgerTransactions.id }).from(ledgerTransactions).orderBy(sql`id desc`).limit(1);
      const [entry] = await tx.select().from(ledgerEntries).where(sql`${ledgerEntries.transactionId} = ${row!.id}`).limit(1);
      await tx.insert(ledgerEntries).values({ transactionId: row!.id, accountId: entry!.accountId, amountCents: 1 });
    });
    expect(await refusal(written)).toMatch(/does not balance: its entries sum to 1 cents/);
    expect(await balancesOf(database.db, sellerId)).toEqual({ pendingCents: 0, availableCents: 0, paidOutCents: 0 });
  });

  it('balances over any sequence of sales, releases, refunds and payouts, and each seller’s balances are what happened to them', async () => {
    const sellers: string[] = [randomUUID(), randomUUID(), randomUUID()];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('sale' as const), seller: fc.nat(2), amountCents: fc.integer({ min: 1, max: 500_000 }), percent: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('payout' as const), seller: fc.nat(2) }),
    );
    // What each seller's balances must be, kept apart from the ledger.
    const model = new Map(sellers.map((id) => [id, { pendingCents: 0, availableCents: 0, paidOutCents: 0 }]));
    const sales: { money: SaleMoney; state: 'held' | 'released' | 'refunded' }[] = [];
    // The books may hold other tests' movements: the sequence's own are measured from here.
    const before = (await ledgerTotals(database.db)).byKind;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const next of steps) {
          await database.db.transaction(async (tx) => {
            if (next.kind === 'sale') {
              const money = sale(sellers[next.seller]!, next.amountCents, Math.round((next.amountCents * next.percent) / 100));
              await recordCharge(tx, money);
              sales.push({ money, state: 'held' });
              model.get(money.sellerId)!.pendingCents += money.amountCents - money.feeCents;
              return;
            }
            if (next.kind === 'payout') {
              const sellerId = sellers[next.seller]!;
              const balances = model.get(sellerId)!;
              if (balances.availableCents <= 0) return;
              await recordPayout(tx, { payoutId: randomUUID(), sellerId, amountCents: balances.availableCents });
              balances.paidOutCents += balances.availableCents;
              balances.availableCents = 0;
              return;
            }
            const open = sales.filter((candidate) => candidate.state !== 'refunded' && (next.kind === 'refund' || candidate.state === 'held'));
            const picked = open[next.pick % Math.max(open.length, 1)];
            if (!picked) return;
            const balances = model.get(picked.money.sellerId)!;
            const share = picked.money.amountCents - picked.money.feeCents;
            if (next.kind === 'release') {
              await recordRelease(tx, picked.money);
              balances.pendingCents -= share;
              balances.availableCents += share;
              picked.state = 'released';
            } else {
              await recordRefund(tx, picked.money, picked.state === 'released');
              if (picked.state === 'released') balances.availableCents -= share;
              else balances.pendingCents -= share;
              picked.state = 'refunded';
            }
          });
        }
        const totals = await ledgerTotals(database.db);
        expect(totals.sumCents).toBe(0);
        for (const sellerId of sellers) expect(await balancesOf(database.db, sellerId)).toEqual(model.get(sellerId));
        const fees = sales.filter((one) => one.state === 'released').reduce((sum, one) => sum + one.money.feeCents, 0);
        expect(totals.byKind['platform-fees'] - before['platform-fees']).toBe(fees);
        const refunded = sales.filter((one) => one.state === 'refunded').reduce((sum, one) => sum + one.money.amountCents, 0);
        expect(totals.byKind.refunds - before.refunds).toBe(refunded);
        const charged = sales.reduce((sum, one) => sum + one.money.amountCents, 0);
        expect(before['buyer-payments'] - totals.byKind['buyer-payments']).toBe(charged);
      }),
      { numRuns: 30 },
    );
  });

  it('fixes the fee the browser shows, to the cent, for any price and fee settings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: PRICE_MAX * 100 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        async (priceCents, hundredths, fixedCents) => {
          const fee = { percent: hundredths / 100, fixedCents };
          const price = (priceCents / 100).toFixed(2);
          const { rows } = await database.db.execute<{ fee: number }>(sql`select ${platformFeeSql(sql`${price}::numeric(12, 2)`, fee)} as fee`);
          expect(rows[0]!.fee).toBe(platformFeeCents(priceCents, fee));
        },
      ),
      { examples: [[5_500, 70, 0]] },
    );
  });
});
