import { eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '@furniture/contract';
import pg from 'pg';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { categories, products } from '../db/schema/index.ts';
import { planSearch } from './plans.ts';

const t = setupTestApp();

type CountRow = {
  key: string;
  category_id: string;
  condition: string;
  in_stock: string;
  listings: number;
  /** Words only: how many of them name it. */
  named?: number;
};

const byKey = (rows: CountRow[]) => [...rows].sort((a, b) => `${a.key}|${a.category_id}|${a.condition}|${a.in_stock}`.localeCompare(`${b.key}|${b.category_id}|${b.condition}|${b.in_stock}`));

/** What the public sees of the listings, as the counts are maintained of it. */
const visible = sql`state in ('available', 'reserved', 'sold') and moderation is null`;

/** The word (with those naming it) and place counts the trigger maintained, and the same counted afresh from the listings the public sees. */
async function storedAndFresh() {
  const read = async (statement: SQL) => byKey((await t.db.execute<CountRow>(statement)).rows);
  return {
    words: {
      stored: await read(sql`select term as key, category_id, condition::text, in_stock::text, listings, named from search_word_counts where listings <> 0`),
      fresh: await read(sql`
        select w.lexeme as key, category_id, condition::text, in_stock::text, count(*)::int as listings,
          (count(*) filter (where search_vector @@ (quote_literal(w.lexeme) || ':A')::tsquery))::int as named
        from products cross join lateral unnest(tsvector_to_array(search_vector)) as w(lexeme)
        where ${visible} group by w.lexeme, category_id, condition, in_stock`),
    },
    places: {
      stored: await read(sql`select place as key, category_id, condition::text, in_stock::text, listings from search_place_counts where listings <> 0`),
      fresh: await read(sql`
        select furniture_fold(location) as key, category_id, condition::text, in_stock::text, count(*)::int as listings
        from products where ${visible} group by 1, category_id, condition, in_stock`),
    },
  };
}

async function expectStoredCountsFresh(step: string) {
  const { words, places } = await storedAndFresh();
  expect(words.stored, step).toEqual(words.fresh);
  expect(places.stored, step).toEqual(places.fresh);
  const negative = await t.db.execute(sql`
    select 1 from search_word_counts where listings < 0 or named < 0 or named > listings union all select 1 from search_place_counts where listings < 0`);
  expect(negative.rows, step).toEqual([]);
}

async function search(query: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SearchResponse>();
}

/** A seller and two categories; `refs` lists in the first. */
async function twoCategories() {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const first = await createCategory(t.db);
  const second = await createCategory(t.db);
  return { first, second, refs: { categoryId: first.id, sellerId: seller.id } };
}

/** Exact facets, as counts that hold every match answer them. */
const facets = (condition: Record<string, number>, category: Record<string, number>) => ({ condition, category, exact: true, estimated: false });

describe('word and place counts stored by a trigger', () => {
  it('match a fresh count after inserts, sales, hiding, edits, category changes, a category renamed and deletes', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const chairs = await createCategory(t.db, { categoryName: 'Zorbel chairs' });
    const tables = await createCategory(t.db, { categoryName: 'Zorbel tables' });
    const refs = { categoryId: chairs.id, sellerId: seller.id };
    const teak = await createProduct(t.db, refs, { productName: 'Teak zorbel chair', condition: 'Good', location: 'Gulshan' });
    const oak = await createProduct(t.db, refs, { productName: 'Oak zorbel chair', condition: 'Fair' });
    const table = await createProduct(t.db, { ...refs, categoryId: tables.id }, { productName: 'Teak zorbel table', description: 'Seats six' });
    await createProduct(t.db, refs, { productName: 'Sold teak stool', inStock: 'sold' });
    await createProduct(t.db, refs, { productName: 'Withdrawn teak bench', state: 'withdrawn' });
    await expectStoredCountsFresh('inserted');

    await t.db.update(products).set({ state: 'sold', inStock: 'sold' }).where(eq(products.id, teak.id));
    await expectStoredCountsFresh('sold');
    await t.db.update(products).set({ state: 'reserved', inStock: 'sold' }).where(eq(products.id, oak.id));
    await t.db.update(products).set({ state: 'available', inStock: 'available' }).where(eq(products.id, oak.id));
    await expectStoredCountsFresh('reserved and released');
    await t.db.update(products).set({ state: 'withdrawn', inStock: 'sold' }).where(eq(products.id, table.id));
    await expectStoredCountsFresh('withdrawn');
    await t.db.update(products).set({ state: 'available', inStock: 'available' }).where(eq(products.id, table.id));
    await t.db.update(products).set({ moderation: 'hidden', moderatedAt: new Date() }).where(eq(products.id, oak.id));
    await expectStoredCountsFresh('hidden by an admin');
    await t.db.update(products).set({ moderation: null, moderatedAt: null }).where(eq(products.id, oak.id));
    // A seller suspended: every listing of theirs hidden in one statement, then shown again.
    await t.db.update(products).set({ moderation: 'hidden', hiddenBySuspension: true }).where(eq(products.sellerId, seller.id));
    await expectStoredCountsFresh('a seller suspended');
    await t.db.update(products).set({ moderation: null, hiddenBySuspension: false }).where(eq(products.sellerId, seller.id));
    await expectStoredCountsFresh('the suspension lifted');
    await t.db.update(products).set({ categoryId: tables.id, condition: 'Excellent' }).where(eq(products.id, oak.id));
    await expectStoredCountsFresh('moved to another category and condition');
    await t.db.update(products).set({ productName: 'Walnut zorbel chair', description: 'Newly oiled', location: 'Banani' }).where(eq(products.id, teak.id));
    await expectStoredCountsFresh('edited');
    // The same words, one of them moved from the name to the description: only how many name it changes.
    await t.db.update(products).set({ productName: 'Zorbel chair', description: 'Walnut, newly oiled' }).where(eq(products.id, teak.id));
    await expectStoredCountsFresh('a word no longer in the name');
    await t.db.update(categories).set({ categoryName: 'Quorral tables' }).where(eq(categories.id, tables.id));
    await expectStoredCountsFresh('category renamed');
    await t.db.delete(products).where(eq(products.id, table.id));
    await expectStoredCountsFresh('deleted');
    const { words, places } = await storedAndFresh();
    expect(words.stored.filter((row) => row.key === 'quorral')).toEqual([{ key: 'quorral', category_id: tables.id, condition: 'Excellent', in_stock: 'available', listings: 1, named: 0 }]);
    expect(places.stored.filter((row) => row.key === 'banani')).toEqual([{ key: 'banani', category_id: chairs.id, condition: 'Good', in_stock: 'sold', listings: 1 }]);
  });

  it('answer a one-word search’s facets with the counts its matches give, available only or with sold listings', async () => {
    const { first, second, refs } = await twoCategories();
    await createProduct(t.db, refs, { productName: 'Plinkett sofa', condition: 'Good' });
    await createProduct(t.db, refs, { productName: 'Small plinkett sofa', condition: 'Fair', inStock: 'sold' });
    await createProduct(t.db, { ...refs, categoryId: second.id }, { productName: 'Desk', description: 'From the Plinkett works', condition: 'Good' });
    await createProduct(t.db, refs, { productName: 'Hidden plinkett sofa', state: 'expired' });

    const available = { condition: { Excellent: 0, Good: 2, Fair: 0 }, category: { [first.id]: 1, [second.id]: 1 }, exact: true, estimated: false };
    const withSold = { condition: { Excellent: 0, Good: 2, Fair: 1 }, category: { [first.id]: 2, [second.id]: 1 }, exact: true, estimated: false };
    expect((await search('q=plinkett')).facets).toEqual(available);
    expect((await search('q=plinketts&inStock=false')).facets).toEqual(withSold);
    // The same searches with a filter that keeps every match are counted over the listings: the same counts.
    expect((await search('q=plinkett&minPrice=0')).facets).toEqual(available);
    expect((await search('q=plinkett&inStock=false&minPrice=0')).facets).toEqual(withSold);
    // Each facet still ignores only its own filter.
    expect((await search(`q=plinkett&categoryId=${second.id}&condition=Fair`)).facets).toEqual({
      condition: { Excellent: 0, Good: 1, Fair: 0 },
      category: {},
      exact: true,
      estimated: false,
    });
  });

  it('answer a search by place alone with the counts of the places it matches, and count the listings once anything else narrows it', async () => {
    const { first, second, refs } = await twoCategories();
    await createProduct(t.db, refs, { productName: 'Chair', condition: 'Good', location: 'Vrellmoor North', resalePrice: '40.00' });
    await createProduct(t.db, refs, { productName: 'Stool', condition: 'Fair', location: 'Vrellmoor South', inStock: 'sold' });
    await createProduct(t.db, { ...refs, categoryId: second.id }, { productName: 'Desk', condition: 'Good', location: 'Vrellmoor North', resalePrice: '90.00' });
    await createProduct(t.db, refs, { productName: 'Bench', condition: 'Excellent', location: 'Vrellmoor North', state: 'expired' });
    await createProduct(t.db, refs, { productName: 'Table', condition: 'Excellent', location: 'Quessington' });

    const available = facets({ Excellent: 0, Good: 2, Fair: 0 }, { [first.id]: 1, [second.id]: 1 });
    // Read from the stored counts: with them emptied, a search by place alone counts nothing.
    await t.db.execute(sql`update search_place_counts set listings = 0`);
    expect((await search('location=vrellmoor')).facets).toEqual(facets({ Excellent: 0, Good: 0, Fair: 0 }, {}));
    await t.db.execute(sql`select search_place_counts_recount()`);
    // Both places of the town, a misspelt one too, with or without sold listings, in any order.
    expect((await search('location=Vrelmoor&sort=price-asc')).facets).toEqual(available);
    expect((await search('location=VRELLMOOR&inStock=false')).facets).toEqual(facets({ Excellent: 0, Good: 2, Fair: 1 }, { [first.id]: 2, [second.id]: 1 }));
    // A price or a word narrows it, and the listings are counted.
    expect((await search('location=vrellmoor&minPrice=0')).facets).toEqual(available);
    expect((await search('location=vrellmoor&maxPrice=50')).facets).toEqual(facets({ Excellent: 0, Good: 1, Fair: 0 }, { [first.id]: 1 }));
    expect((await search('q=desk&location=vrellmoor')).facets).toEqual(facets({ Excellent: 0, Good: 1, Fair: 0 }, { [second.id]: 1 }));
  });

  it('answer a search whose words no category holds together in one condition without reading a listing', async () => {
    const { first, second, refs } = await twoCategories();
    await createProduct(t.db, refs, { productName: 'Zandor table', condition: 'Good' });
    await createProduct(t.db, refs, { productName: 'Zandor plimsy table', condition: 'Fair' });
    await createProduct(t.db, { ...refs, categoryId: second.id }, { productName: 'Plimsy chair', condition: 'Good' });

    const none = facets({ Excellent: 0, Good: 0, Fair: 0 }, {});
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    /** The statements a search sends that read the listings. */
    const listingsRead = async (query: Parameters<typeof planSearch>[1]['query']) =>
      (await planSearch(client, { name: 'words apart', query })).filter(({ statement }) => statement.includes('"products"'));
    try {
      // Together only in the first category's Fair listings: found there, and only there.
      expect((await search('q=zandor%20plimsy')).facets).toEqual(facets({ Excellent: 0, Good: 0, Fair: 1 }, { [first.id]: 1 }));
      expect((await search('q=zandor%20plimsy')).data.map((product) => product.productName)).toEqual(['Zandor plimsy table']);
      // Asked in Good condition, or in the second category, with sold listings or not: no page is read.
      for (const query of ['condition=Good', `categoryId=${second.id}`, `categoryId=${second.id}&inStock=false`]) {
        expect((await search(`q=zandor%20plimsy&${query}`)).data, query).toEqual([]);
      }
      expect(await listingsRead({ q: 'zandor plimsy', condition: ['Good'] })).toHaveLength(1);
      // Words no group holds together: neither the facets nor the page read a listing.
      await t.db.update(products).set({ productName: 'Zandor table', condition: 'Good' }).where(eq(products.productName, 'Zandor plimsy table'));
      expect(await search('q=zandor%20plimsy&sort=newest')).toMatchObject({ data: [], facets: none });
      expect(await listingsRead({ q: 'zandor plimsy', sort: 'newest' })).toEqual([]);
      expect(await listingsRead({ q: 'zandor plimsy', maxPrice: 1000, location: 'Dhaka' })).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
