import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { SearchQuery } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createDatabase } from '../db/client.ts';
import { createCategory, createProduct, createUser } from '../db/factories.ts';
import { searchCatalogue } from './catalogue-search.ts';
import { findProductDetails } from './product-details.ts';

const t = setupTestApp();

/** A pool of one connection, so that the statements it keeps prepared are those of every read made through it. */
function oneConnection() {
  const { db, pool } = createDatabase(t.database.url, 1);
  const prepared = async () =>
    (await db.execute<{ statement: string; generic_plans: number }>(sql`select statement, generic_plans::int as generic_plans from pg_prepared_statements`)).rows;
  return { db, prepared, close: () => pool.end() };
}

it('plans a first page of browsing once for any category, and a search by words, place or price, another page size or a later page for the values asked', async () => {
  const seller = await createUser(t.db, { role: 'seller' });
  const [desks, beds] = [await createCategory(t.db), await createCategory(t.db)];
  for (const category of [desks, beds]) {
    for (let index = 0; index < 3; index++) await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: `Oak piece ${index}` });
  }
  const { db, prepared, close } = oneConnection();
  try {
    const browse = async (query: SearchQuery) => (await searchCatalogue(db, query)).rows.map((row) => row.categoryId);
    // PostgreSQL plans the first five executions for their values, then one plan for any.
    for (let time = 0; time < 6; time++) expect(await browse({ categoryId: desks.id })).toEqual([desks.id, desks.id, desks.id]);
    expect(await browse({ categoryId: beds.id })).toEqual([beds.id, beds.id, beds.id]);
    const [page] = await prepared();
    expect(await prepared()).toHaveLength(1);
    expect(page!.statement).toContain('from "products"');
    expect(page!.generic_plans).toBeGreaterThanOrEqual(2);

    const { nextCursor } = await searchCatalogue(db, { categoryId: desks.id, limit: 2 });
    for (const query of [{ q: 'oak' }, { location: 'Dhanmondi' }, { minPrice: 10 }, { categoryId: desks.id, cursor: nextCursor! }]) await searchCatalogue(db, query);
    expect(await prepared()).toHaveLength(1);
  } finally {
    await close();
  }
});

it('plans the statements of a product page once for any product', async () => {
  const seller = await createUser(t.db, { role: 'seller' });
  const category = await createCategory(t.db);
  const pieces = [];
  for (let index = 0; index < 7; index++) {
    pieces.push(await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: `Teak chair ${index}`, resalePrice: String(100 + index * 10) }));
  }
  const { db, prepared, close } = oneConnection();
  try {
    for (const piece of pieces) {
      const details = await findProductDetails(db, piece.id);
      expect(details?._id).toBe(piece.id);
      expect(details?.seller._id).toBe(seller.id);
      expect(details?.similar.map((similar) => similar.categoryId)).toEqual(Array(6).fill(category.id));
    }
    // The piece, its seller, the seller's sales, the closest pieces above and below its price.
    const statements = await prepared();
    expect(statements).toHaveLength(5);
    for (const { statement, generic_plans } of statements) expect(generic_plans, statement).toBeGreaterThanOrEqual(2);
  } finally {
    await close();
  }
});
