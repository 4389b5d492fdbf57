import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { PRICE_GUIDE_MIN_SALES, type Condition, type PriceGuide, type PriceGuideQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products } from '../db/schema/index.ts';

/** The latest comparable sales read; older ones weigh next to nothing anyway. */
const MAX_COMPARABLES = 200;
/** A sale's weight halves every this many days. */
const RECENCY_HALF_LIFE_DAYS = 180;
/** Conditions next to each other count as comparable, at this weight. */
const NEIGHBOUR_CONDITION_WEIGHT = 0.5;
const neighbours: Record<Condition, Condition[]> = {
  Excellent: ['Good'],
  Good: ['Excellent', 'Fair'],
  Fair: ['Good'],
};

/** The depreciation fallback (decision 13): a share kept by condition, then a share kept per year of use. */
const KEPT_BY_CONDITION: Record<Condition, number> = { Excellent: 0.75, Good: 0.6, Fair: 0.4 };
const KEPT_PER_YEAR = 0.88;
const LOWEST_SHARE = 0.05;
const ESTIMATE_SPREAD = 0.2;

export interface Sale {
  /** Resale price as a share of the original price. */
  share: number;
  weight: number;
}

/** How far around the asked age a sale still compares: two years, or half the age when that is more. */
export function ageWindow(yearsUsed: number) {
  const reach = Math.max(2, yearsUsed / 2);
  return { from: Math.max(0, yearsUsed - reach), to: yearsUsed + reach };
}

/** The value below which `fraction` of the total weight lies. */
export function weightedQuantile(sales: Sale[], fraction: number): number {
  const sorted = [...sales].sort((a, b) => a.share - b.share);
  const total = sorted.reduce((sum, sale) => sum + sale.weight, 0);
  let running = 0;
  for (const sale of sorted) {
    running += sale.weight;
    if (running >= fraction * total) return sale.share;
  }
  return sorted.at(-1)!.share;
}

const money = (value: number) => Math.max(1, Math.round(value));

export function depreciationEstimate(query: Pick<PriceGuideQuery, 'condition' | 'originalPrice' | 'yearsUsed'>): PriceGuide {
  const share = Math.max(LOWEST_SHARE, KEPT_BY_CONDITION[query.condition] * KEPT_PER_YEAR ** query.yearsUsed);
  const typical = query.originalPrice * share;
  return {
    low: money(typical * (1 - ESTIMATE_SPREAD)),
    typical: money(typical),
    high: money(typical * (1 + ESTIMATE_SPREAD)),
    basis: 'estimate',
    salesCount: 0,
  };
}

/**
 * Comparable sales: sold here, same category, same or neighbouring condition, of a similar age;
 * the latest first, along the (category, sold at) index.
 */
async function comparableSales(db: Executor, query: PriceGuideQuery, now: Date): Promise<Sale[]> {
  const window = ageWindow(query.yearsUsed);
  const rows = await db
    .select({
      resalePrice: products.resalePrice,
      originalPrice: products.originalPrice,
      condition: products.condition,
      soldAt: products.soldAt,
    })
    .from(products)
    .where(
      and(
        eq(products.categoryId, query.categoryId),
        isNotNull(products.soldAt),
        inArray(products.condition, [query.condition, ...neighbours[query.condition]]),
        sql`${products.yearsUsed} between ${window.from}::numeric and ${window.to}::numeric`,
      ),
    )
    .orderBy(desc(products.soldAt))
    .limit(MAX_COMPARABLES);
  return rows.map((row) => {
    const ageDays = Math.max(0, (now.getTime() - row.soldAt!.getTime()) / 86_400_000);
    const conditionWeight = row.condition === query.condition ? 1 : NEIGHBOUR_CONDITION_WEIGHT;
    return {
      share: Number(row.resalePrice) / Number(row.originalPrice),
      weight: conditionWeight * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS),
    };
  });
}

/**
 * A suggested resale range (decision 13): the weighted quartiles and median of what comparable
 * pieces sold for, as a share of their original price, applied to this one's original price; with
 * fewer than PRICE_GUIDE_MIN_SALES comparable sales, the depreciation estimate.
 */
export async function priceGuideFor(db: Executor, query: PriceGuideQuery, now = new Date()): Promise<PriceGuide> {
  const sales = await comparableSales(db, query, now);
  if (sales.length < PRICE_GUIDE_MIN_SALES) return depreciationEstimate(query);
  return {
    low: money(query.originalPrice * weightedQuantile(sales, 0.25)),
    typical: money(query.originalPrice * weightedQuantile(sales, 0.5)),
    high: money(query.originalPrice * weightedQuantile(sales, 0.75)),
    basis: 'sales',
    salesCount: sales.length,
  };
}
