import { describe, expect, it } from 'vitest';
import { PRICE_GUIDE_MIN_SALES } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { depreciationEstimate } from './price-guide.ts';

const t = setupTestApp();

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

async function market() {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  return { seller, category, refs: { categoryId: category.id, sellerId: seller.id } };
}

async function guide(sellerId: string, query: Record<string, string | number>) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/price-guide?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]))}`,
    headers: await bearer(t.app, sellerId),
  });
  return { status: response.statusCode, body: response.json() };
}

/** A sold piece that went for `share` of its 1,000 original price. */
const sale = (refs: { categoryId: string; sellerId: string }, share: number, extra: Parameters<typeof createProduct>[2] = {}) =>
  createProduct(t.db, refs, {
    originalPrice: '1000.00',
    resalePrice: (1000 * share).toFixed(2),
    inStock: 'sold',
    condition: 'Good',
    yearsOfUsedProduct: '3 years',
    ...extra,
  });

describe('GET /api/price-guide', () => {
  it('suggests the weighted quartiles of comparable sales, scaled to the original price', async () => {
    const { seller, refs, category } = await market();
    for (const share of [0.3, 0.4, 0.5, 0.6, 0.7]) await sale(refs, share, { soldAt: daysAgo(10) });
    const { status, body } = await guide(seller.id, { categoryId: category.id, condition: 'Good', originalPrice: 2000, yearsUsed: 3 });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: { low: 800, typical: 1000, high: 1200, basis: 'sales', salesCount: 5 } });
  });

  it('weighs recent sales over old ones', async () => {
    const { seller, refs, category } = await market();
    for (let index = 0; index < 3; index++) await sale(refs, 0.2, { soldAt: daysAgo(1500) });
    for (let index = 0; index < 3; index++) await sale(refs, 0.6, { soldAt: daysAgo(5) });
    const { body } = await guide(seller.id, { categoryId: category.id, condition: 'Good', originalPrice: 1000, yearsUsed: 3 });
    expect(body.data).toMatchObject({ typical: 600, basis: 'sales', salesCount: 6 });
  });

  it('leaves out other categories, distant conditions, other ages and unsold pieces', async () => {
    const { seller, refs, category } = await market();
    const other = await createCategory(t.db);
    for (let index = 0; index < 4; index++) await sale(refs, 0.5);
    await sale({ ...refs, categoryId: other.id }, 0.5);
    await sale(refs, 0.5, { condition: 'Excellent' }); // not comparable with Fair
    await sale(refs, 0.5, { condition: 'Fair', yearsOfUsedProduct: '15 years' });
    await createProduct(t.db, refs, { condition: 'Fair', yearsOfUsedProduct: '3 years', originalPrice: '1000.00', resalePrice: '500.00' });
    const { body } = await guide(seller.id, { categoryId: category.id, condition: 'Fair', originalPrice: 1000, yearsUsed: 3 });
    // Only the four Good ones of similar age compare with a Fair piece: too few, so an estimate.
    expect(body.data).toEqual(depreciationEstimate({ condition: 'Fair', originalPrice: 1000, yearsUsed: 3 }));
    await sale(refs, 0.5, { condition: 'Fair', yearsOfUsedProduct: '30 months' });
    const enough = await guide(seller.id, { categoryId: category.id, condition: 'Fair', originalPrice: 1000, yearsUsed: 3 });
    expect(enough.body.data).toMatchObject({ basis: 'sales', salesCount: PRICE_GUIDE_MIN_SALES, typical: 500 });
  });

  it('falls back to the original price depreciated by age and condition, labelled as an estimate', async () => {
    const { seller, category } = await market();
    const excellent = await guide(seller.id, { categoryId: category.id, condition: 'Excellent', originalPrice: 1000, yearsUsed: 0 });
    expect(excellent.body.data).toEqual({ low: 600, typical: 750, high: 900, basis: 'estimate', salesCount: 0 });
    const olderFair = await guide(seller.id, { categoryId: category.id, condition: 'Fair', originalPrice: 1000, yearsUsed: 5 });
    expect(olderFair.body.data.basis).toBe('estimate');
    expect(olderFair.body.data.typical).toBeLessThan(excellent.body.data.typical);
    const ancient = await guide(seller.id, { categoryId: category.id, condition: 'Fair', originalPrice: 1000, yearsUsed: 90 });
    expect(ancient.body.data.typical).toBe(50);
  });

  it.each([
    [{ condition: 'Good', originalPrice: 100, yearsUsed: 1 }, 'categoryId'],
    [{ categoryId: 'x', condition: 'Good', originalPrice: 100, yearsUsed: 1 }, 'categoryId'],
    [{ categoryId: '00000000-0000-4000-8000-000000000000', condition: 'Good', originalPrice: 100, yearsUsed: 1 }, 'categoryId'],
    [{ categoryId: 'CATEGORY', condition: 'Mint', originalPrice: 100, yearsUsed: 1 }, 'condition'],
    [{ categoryId: 'CATEGORY', condition: 'Good', originalPrice: 0, yearsUsed: 1 }, 'originalPrice'],
    [{ categoryId: 'CATEGORY', condition: 'Good', originalPrice: 100, yearsUsed: -1 }, 'yearsUsed'],
    [{ categoryId: 'CATEGORY', condition: 'Good', originalPrice: 100 }, 'yearsUsed'],
  ])('%j answers 400 naming %s', async (query, parameter) => {
    const { seller, category } = await market();
    const filled = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'CATEGORY' ? category.id : v]));
    const { status, body } = await guide(seller.id, filled);
    expect(status).toBe(400);
    expect(body.message.startsWith(parameter)).toBe(true);
  });
});
