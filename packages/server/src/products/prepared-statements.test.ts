import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { SearchQuery } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createDatabase } from '../db/client.ts';
import { categories, products } from '../db/schema/index.ts';
import { seedCatalogue } from '../demo/catalogue-seed.ts';
import { searchCatalogue } from '../search/search.ts';
import { findProductDetails } from './product-details.ts';

const t = setupTestApp();
// Enough listings for plans to differ: on a few rows, a plan for any value costs what the others do.
beforeAll(() => seedCatalogue(t.database.url, { products: 1_500, publicUrl: 'http://localhost:5000' }));

/** A pool of one connection, so that the statements it keeps prepared are those of every read made through it. */
function oneConnection() {
  const { db, pool } = createDatabase(t.database.url, 1);
  const prepared = async () =>
    (await db.execute<{ statement: string; generic_plans: number }>(sql`select statement, generic_plans::int as generic_plans from pg_prepared_statements`)).rows;
  return { db, prepared, close: () => pool.end() };
}

it('plans browsing once for any category and any page, and a search by words, place or price, or another page size, for the values asked (its place looked up once for any)', async () => {
  const categoryIds = (await t.db.select({ id: categories.id }).from(categories).limit(2)).map((row) => row.id);
  const { db, prepared, close } = oneConnection();
  try {
    const browse = async (query: SearchQuery) => {
      const page = await searchCatalogue(db, query);
      if (query.categoryId) expect(new Set(page.rows.map((row) => row.categoryId))).toEqual(new Set([query.categoryId]));
      return page.nextCursor!;
    };
    // PostgreSQL plans the first five executions for their values, then one plan for any.
    for (let time = 0; time < 4; time++) for (const categoryId of categoryIds) await browse({ categoryId });
    const [firstPage] = await prepared();
    expect(await prepared()).toHaveLength(1);
    expect(firstPage!.statement).toContain('from "products"');
    expect(firstPage!.generic_plans).toBeGreaterThanOrEqual(2);

    // Every listing, page after page: one statement for the first page and one for the others.
    let cursor = await browse({});
    for (let page = 2; page <= 8; page++) cursor = await browse({ cursor });
    const statements = await prepared();
    expect(statements).toHaveLength(3);
    for (const { statement, generic_plans } of statements) expect(generic_plans, statement).toBeGreaterThanOrEqual(1);

    for (const query of [{ q: 'oak' }, { location: 'Dhanmondi' }, { minPrice: 10 }, { categoryId: categoryIds[0], limit: 5 }]) await searchCatalogue(db, query);
    // Only the small table of places a location is looked up in, read whole whatever the location.
    const added = (await prepared()).filter(({ statement }) => !statements.some((kept) => kept.statement === statement));
    expect(added).toHaveLength(1);
    expect(added[0]!.statement).toMatch(/ from "search_places" where /);
  } finally {
    await close();
  }
});

it('plans the statements of a product page once for any product', async () => {
  // Five pages planned for their values, then seven chances for the plan for any value: it costs
  // about what a plan for one seller's sales does, and is taken when the average of those is more.
  const pieces = await t.db.select({ id: products.id, categoryId: products.categoryId }).from(products).where(sql`${products.inStock} = 'available'`).limit(12);
  const { db, prepared, close } = oneConnection();
  try {
    for (const piece of pieces) {
      const details = await findProductDetails(db, piece.id);
      expect(details?._id).toBe(piece.id);
      expect(details?.similar.map((similar) => similar.categoryId)).toEqual(Array(6).fill(piece.categoryId));
    }
    // The piece, its seller, the seller's sales, the closest pieces above and below its price.
    const statements = await prepared();
    expect(statements).toHaveLength(5);
    for (const { statement, generic_plans } of statements) expect(generic_plans, statement).toBeGreaterThanOrEqual(2);
  } finally {
    await close();
  }
});
