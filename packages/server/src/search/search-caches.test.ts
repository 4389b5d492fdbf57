import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '@furniture/contract';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import type { App } from '../app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { products } from '../db/schema/index.ts';
import { facetCountCache } from './search-caches.ts';
import { CACHED_FACET_SEARCHES } from './thresholds.ts';

const t = setupTestApp();
/** A second app server on the same database, with its own pool, listener and cached counts. */
const second = setupSecondApp(t);

async function search(app: App, query: string) {
  const response = await app.inject({ method: 'GET', url: `/api/products?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SearchResponse>();
}

/**
 * Changes a listing's condition without announcing it, as no code of the product can: counts that
 * miss the change were cached, not counted again.
 */
async function changeConditionSilently(productId: string, condition: 'Excellent' | 'Good' | 'Fair') {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.update(products).set({ condition }).where(eq(products.id, productId));
  });
}

describe('cached facet counts', () => {
  it('reuses a search’s counts across sorts and its own filters, and counts again on every server after a new listing', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const other = await createCategory(t.db);
    const refs = { categoryId: category.id, sellerId: seller.id };
    const first = await createProduct(t.db, refs, { productName: 'Quillwood chair', condition: 'Good' });
    await createProduct(t.db, refs, { productName: 'Quillwood stool', condition: 'Fair' });
    await createProduct(t.db, { ...refs, categoryId: other.id }, { productName: 'Quillwood shelf', condition: 'Good' });

    // A price bound, so the counts are read from the listings (those of one word alone are stored in the database).
    const counted = await search(t.app, 'q=quillwood&maxPrice=1000');
    expect(counted.facets).toEqual({ condition: { Excellent: 0, Good: 2, Fair: 1 }, category: { [category.id]: 2, [other.id]: 1 }, exact: true, estimated: false });

    // Into a condition its category already holds the word in, so the page is still read.
    await changeConditionSilently(first.id, 'Fair');
    // Another sort, a category, a condition: the same matches, so the cached counts are reused.
    expect((await search(t.app, 'q=quillwood&maxPrice=1000&sort=price-asc')).facets).toEqual(counted.facets);
    expect((await search(t.app, `q=quillwood&maxPrice=1000&sort=newest&categoryId=${category.id}`)).facets).toEqual({
      condition: { Excellent: 0, Good: 1, Fair: 1 },
      category: { [category.id]: 2, [other.id]: 1 },
      exact: true,
      estimated: false,
    });
    expect((await search(t.app, 'q=quillwood&maxPrice=1000&condition=Fair')).facets).toMatchObject({ category: { [category.id]: 1 } });
    // The page itself is read afresh: it shows the change the counts miss.
    const page = await search(t.app, 'q=quillwood&maxPrice=1000&sort=price-desc&condition=Fair');
    expect(page.data.map((product) => product.productName).sort()).toEqual(['Quillwood chair', 'Quillwood stool']);
    // Another server counts for itself; another search (a price bound) is counted anew.
    expect((await search(second.app, 'q=quillwood&maxPrice=1000&sort=newest')).facets?.condition).toEqual({ Excellent: 0, Good: 1, Fair: 2 });
    expect((await search(t.app, 'q=quillwood&maxPrice=1000&minPrice=0')).facets?.condition).toEqual({ Excellent: 0, Good: 1, Fair: 2 });

    // A new listing, through either server, is counted on the very next search of both.
    await createProduct(t.db, { ...refs, categoryId: other.id }, { productName: 'Quillwood bench', condition: 'Fair' });
    const expected = { condition: { Excellent: 0, Good: 1, Fair: 3 }, category: { [category.id]: 2, [other.id]: 2 }, exact: true, estimated: false };
    expect((await search(t.app, 'q=quillwood&maxPrice=1000&sort=price-asc')).facets).toEqual(expected);
    expect((await search(second.app, 'q=quillwood&maxPrice=1000&sort=newest')).facets).toEqual(expected);
  });
});

describe('cached search words', () => {
  it('reads a misspelt word against the vocabulary as it is on the very next search of every server', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const refs = { categoryId: (await createCategory(t.db)).id, sellerId: seller.id };
    await createProduct(t.db, refs, { productName: 'Quimbal chair' });
    const names = (body: SearchResponse) => body.data.map((product) => product.productName);
    // "quimbel" is no known word: it is read as the known one a slip away, on both servers.
    expect(names(await search(t.app, 'q=quimbel'))).toEqual(['Quimbal chair']);
    expect(names(await search(second.app, 'q=quimbel&sort=newest'))).toEqual(['Quimbal chair']);

    // Now it is a word of the catalogue: the words cached for it are read again, on both servers.
    await createProduct(t.db, refs, { productName: 'Quimbel stool' });
    expect(names(await search(t.app, 'q=quimbel&sort=newest'))).toEqual(['Quimbel stool']);
    expect(names(await search(second.app, 'q=quimbel'))).toEqual(['Quimbel stool']);
  });
});

describe('cached places', () => {
  it('finds a listing in a town new to the catalogue by that town on the very next search of every server', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const refs = { categoryId: (await createCategory(t.db)).id, sellerId: seller.id };
    await createProduct(t.db, refs, { productName: 'Quenbury chair', location: 'Quenbury' });
    const names = (body: SearchResponse) => body.data.map((product) => product.productName);
    for (const app of [t.app, second.app]) {
      expect(names(await search(app, 'location=quenbury'))).toEqual(['Quenbury chair']);
      // No place of the catalogue is called so: nothing is found, on both servers.
      expect(names(await search(app, 'location=zarnholm&sort=price-asc'))).toEqual([]);
    }

    // Now one is: the places cached for that location are read again, on both servers.
    await createProduct(t.db, refs, { productName: 'Zarnholm stool', location: 'Zarnholm' });
    for (const app of [t.app, second.app]) expect(names(await search(app, 'location=zarnholm&sort=newest'))).toEqual(['Zarnholm stool']);
  });
});

describe('facetCountCache', () => {
  const versions = { current: async () => '0:1', now: () => '0:1', onForget: () => undefined };
  const request = { caughtUp: null };

  it('keeps the most recently used searches, up to its bound, and counts the others again', async () => {
    const keep = facetCountCache(versions)(request);
    const counted: string[] = [];
    const count = (key: string) => keep(key, async () => (counted.push(key), { groups: [], complete: true }));
    for (let index = 0; index <= CACHED_FACET_SEARCHES; index++) await count(`search ${index}`);
    expect(counted).toHaveLength(CACHED_FACET_SEARCHES + 1);
    await count(`search ${CACHED_FACET_SEARCHES}`);
    await count('search 1');
    expect(counted).toHaveLength(CACHED_FACET_SEARCHES + 1);
    // The first search was the least recently used when the bound was passed.
    await count('search 0');
    expect(counted.at(-1)).toBe('search 0');
  });

  it('shares one count among searches asked while it runs, and keeps no failed count', async () => {
    const keep = facetCountCache(versions)(request);
    let counts = 0;
    const failing = () => keep('broken', async () => (counts++, Promise.reject(new Error('gone'))));
    await expect(Promise.all([failing(), failing()])).rejects.toThrow('gone');
    expect(counts).toBe(1);
    await expect(failing()).rejects.toThrow('gone');
    expect(counts).toBe(2);
  });
});
