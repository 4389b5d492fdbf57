import { describe, expect, it } from 'vitest';
import { statementTexts } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import { bookingStep, paidSaleOf, releasedSaleOf } from '../../test/sale-fixtures.ts';

const t = setupTestApp();

const newSeller = () => createUser(t.db, { role: 'seller', verified: true });
const get = async (sellerId: string, url: string) => t.app.inject({ method: 'GET', url, headers: await bearer(t.app, sellerId) });

describe('GET /api/me/earnings', () => {
  it('shows pending, available and paid out, the sales still held with their release dates, the weekly chart and every entry', async () => {
    const seller = await newSeller();
    const released = await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    const held = await paidSaleOf(t.app, t.db, { seller, resalePrice: '80.00' });
    await bookingStep(t.app, held.sellerHeaders, held.booking.id, 'handover');

    const response = await get(seller.id, '/api/me/earnings');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({ currency: 'USD', pendingCents: 7_200, availableCents: 13_500, paidOutCents: 0, nextCursor: null });
    expect(data.held).toEqual([
      { _id: held.booking.id, productName: held.product.productName, amountCents: 7_200, fundsState: 'held', releaseAt: expect.any(String) },
    ]);
    expect(data.weeks).toHaveLength(12);
    expect(data.weeks.at(-1).cents).toBe(13_500);
    expect(data.entries.map((entry: { kind: string; account: string; amountCents: number }) => [entry.kind, entry.account, entry.amountCents])).toEqual([
      ['charge', 'held', 7_200],
      ['release', 'available', 13_500],
      ['charge', 'held', 13_500],
    ]);
    expect(data.entries[2]).toMatchObject({ bookingId: released.booking.id, productName: released.product.productName, _id: expect.any(String) });
  });

  it('shows each movement once: a payout is one entry, what left the available balance', async () => {
    const seller = await newSeller();
    const sale = await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    expect((await t.app.inject({ method: 'POST', url: '/api/me/payouts', headers: sale.sellerHeaders })).statusCode).toBe(201);
    const { data } = (await get(seller.id, '/api/me/earnings')).json();
    expect(data).toMatchObject({ pendingCents: 0, availableCents: 0, paidOutCents: 13_500 });
    expect(data.entries.map((entry: { kind: string; account: string; amountCents: number }) => [entry.kind, entry.account, entry.amountCents])).toEqual([
      ['payout', 'available', -13_500],
      ['release', 'available', 13_500],
      ['charge', 'held', 13_500],
    ]);
    expect(data.entries[0]).toMatchObject({ payoutId: expect.any(String), bookingId: null });
  });

  it('pages the entries with nextCursor, and shows another seller’s money to nobody', async () => {
    const seller = await newSeller();
    // Two entries each: the charge and the release.
    for (let i = 0; i < 26; i++) await releasedSaleOf(t.app, t.db, { seller, resalePrice: '10.00' });
    const first = (await get(seller.id, '/api/me/earnings')).json().data;
    expect(first.entries).toHaveLength(50);
    const second = (await get(seller.id, `/api/me/earnings?cursor=${first.nextCursor}`)).json().data;
    expect(second.entries).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const other = (await get((await newSeller()).id, '/api/me/earnings')).json().data;
    expect(other).toMatchObject({ pendingCents: 0, availableCents: 0, paidOutCents: 0, entries: [], held: [] });
    expect((await get(seller.id, '/api/me/earnings?cursor=abc')).statusCode).toBe(400);
  });

  it('answers 400 naming a cursor no page gave (beyond a bigint, negative, fractional), and an empty page for the largest bigint', async () => {
    const seller = await newSeller();
    for (const cursor of ['99999999999999999999999', '9223372036854775808', '-1', '1.5', '1e-99999']) {
      const response = await get(seller.id, `/api/me/earnings?cursor=${cursor}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json().message).toContain('The cursor must be the nextCursor of a previous page.');
    }
    const largest = await get(seller.id, '/api/me/earnings?cursor=9223372036854775807');
    expect(largest.statusCode).toBe(200);
    expect(largest.json().data.entries).toEqual([]);
  });
});

describe('GET /api/me/earnings/statement', () => {
  it('answers the month’s entries as CSV, and a clear 400 for a month that is not YYYY-MM', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    const month = new Date().toISOString().slice(0, 7);
    const response = await get(seller.id, `/api/me/earnings/statement?month=${month}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(statementTexts.columns.join(','));
    expect(lines.slice(1).map((line) => line.split(',').slice(1))).toEqual([
      [statementTexts.kinds.charge, expect.any(String), statementTexts.accounts.held, '135.00'],
      [statementTexts.kinds.release, expect.any(String), statementTexts.accounts.available, '135.00'],
    ]);
    expect((await get(seller.id, '/api/me/earnings/statement?month=2020-01')).body.trimEnd().split('\r\n')).toHaveLength(1);
    const bad = await get(seller.id, '/api/me/earnings/statement?month=2024-13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/YYYY-MM/);
  });
});

describe('GET /api/admin/finance', () => {
  it('shows the money held, the fees, the payouts and the open problems, from a ledger that balances', async () => {
    const seller = await newSeller();
    await releasedSaleOf(t.app, t.db, { seller, resalePrice: '150.00' });
    const disputed = await paidSaleOf(t.app, t.db, { seller, resalePrice: '60.00' });
    await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${disputed.booking.id}/problem`,
      headers: disputed.buyerHeaders,
      payload: { reason: 'not-received', note: 'Nobody came.' },
    });
    await t.app.inject({ method: 'POST', url: '/api/me/payouts', headers: await bearer(t.app, seller.id) });
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/finance', headers: await bearer(t.app, admin.id) });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    // Other tests of this file pay out too: the totals are at least this test's.
    expect(data).toMatchObject({ _id: 'finance', currency: 'USD', balanced: true, ledgerSumCents: 0, payoutsFailed: 0 });
    expect(data.payoutsPaid).toBeGreaterThanOrEqual(1);
    expect(data.heldCents).toBeGreaterThanOrEqual(6_000);
    expect(data.feesCents).toBeGreaterThanOrEqual(1_500);
    expect(data.paidOutCents).toBeGreaterThanOrEqual(13_500);
    expect(data.openProblems).toEqual([
      expect.objectContaining({ bookingId: disputed.booking.id, reason: 'not-received', note: 'Nobody came.', fundsState: 'frozen', amountCents: 6_000, sellerName: seller.name }),
    ]);
  });
});
