import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../db/factories.ts';
import { products } from '../db/schema/index.ts';
import { NAME_INDEX_UP_TO, RANKED_NAMED } from './catalogue-search.ts';
import { planSearch } from './search-plans.ts';

const t = setupTestApp();

type Listed = { term: string; posted_at: string; product_id: string };
const byKey = (rows: Listed[]) => [...rows].sort((a, b) => `${a.term}|${a.posted_at}|${a.product_id}`.localeCompare(`${b.term}|${b.posted_at}|${b.product_id}`));

/** The name words' list and counts the triggers kept equal those made afresh from the listings. */
async function expectNameWordsFresh(step: string) {
  const kept = await t.db.execute<Listed>(sql`select term, posted_at::text, product_id::text from search_name_words`);
  const fresh = await t.db.execute<Listed>(sql`
    select distinct unnest(tsvector_to_array(to_tsvector('furniture_search', product_name))) as term, posted_at::text, id::text as product_id
    from products`);
  expect(byKey(kept.rows), step).toEqual(byKey(fresh.rows));
  const counts = await t.db.execute(sql`
    select coalesce(k.term, f.term) as term, k.listings as kept, f.listings as fresh
    from (select term, listings from search_name_word_counts where listings <> 0) k
    full join (select term, count(*)::int as listings from search_name_words group by term) f on f.term = k.term
    where k.listings is distinct from f.listings`);
  expect(counts.rows, `${step}: counts`).toEqual([]);
}

async function search(query: Record<string, string | number>) {
  const response = await t.app.inject({ method: 'GET', url: `/api/products?${new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]))}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SearchResponse>();
}

/** Every page of a search, by relevance, `limit` pieces a page; `between` runs before each next page. */
async function walk(query: Record<string, string | number>, limit: number, between: (page: number) => Promise<void> = async () => {}) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    const body = await search({ ...query, limit, ...(cursor ? { cursor } : {}) });
    seen.push(...body.data.map((product) => product._id));
    cursor = body.nextCursor;
    if (cursor) await between(page++);
  } while (cursor);
  return seen;
}

/**
 * The relevance order of a search computed over the listings themselves, without the list: the
 * newest RANKED_NAMED pieces named by every word best named first, the older named pieces newest
 * first, then the other matches newest first (decision 27).
 */
async function relevanceOrder(categoryId: string, words: string) {
  const { rows } = await t.db.execute<{ id: string; named: boolean; rank: number }>(sql`
    select id::text, to_tsvector('furniture_search', product_name) @@ plainto_tsquery('furniture_search', ${words}) as named,
           ts_rank_cd(to_tsvector('furniture_search', product_name), plainto_tsquery('furniture_search', ${words}), 2) as rank
    from products
    where category_id = ${categoryId} and state = 'available' and moderation is null
      and search_vector @@ plainto_tsquery('furniture_search', ${words})
    order by posted_at desc, id desc`);
  const named = rows.filter((row) => row.named);
  const ranked = named.slice(0, RANKED_NAMED).sort((a, b) => b.rank - a.rank);
  return [...ranked, ...named.slice(RANKED_NAMED), ...rows.filter((row) => !row.named)].map((row) => row.id);
}

const materials = ['Quillon', 'Brass', 'Ashen', 'Rustic', 'Quillon oak'];
const kinds = ['dresser', 'chest', 'dresser with mirror', 'bureau', 'tall dresser'];

/** A category of many pieces whose names mix a few words, posted at times unlike their order of insertion. */
async function seededCatalogue(size: number) {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  const refs = { categoryId: category.id, sellerId: seller.id };
  const made = [];
  for (let index = 0; index < size; index++) {
    const name = `${materials[index % materials.length]} ${kinds[Math.floor(index / materials.length) % kinds.length]}${index % 4 === 0 ? ' and stool' : ''}`;
    made.push(
      await createProduct(t.db, refs, {
        productName: name,
        // Some only mention the words, so the last tier is walked too.
        description: index % 6 === 0 ? 'Matches a quillon dresser' : 'Solid and clean',
        postedAt: new Date(Date.UTC(2025, 0, 1, 0, (index * 37) % size)),
        ...(index % 11 === 0 ? { inStock: 'sold' as const } : {}),
      }),
    );
  }
  return { refs, category, made };
}

/**
 * More listings than NAME_INDEX_UP_TO named by every word the tests search for, older than theirs
 * and in a category of their own, so that searches go through the name words' list.
 */
async function nameTheWordsOften() {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db);
  await t.db.execute(sql`
    insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, posted_at)
    select ${category.id}, ${seller.id}, 'Good', 'Quillon oak dresser chest with mirror, bureau, stool, brass ' || i, '1 year', 100, 50, 'Old', '01700000000', 'Dhaka',
           'https://images.example.com/filler.webp', timestamptz '2020-01-01' + i * interval '1 minute'
    from generate_series(1, ${NAME_INDEX_UP_TO + 1}) as i`);
}

describe('the name words’ list', () => {
  it('matches a fresh list after inserts, renames, a moved posting time, edits of other columns, a bulk rename and deletes', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const refs = { categoryId: category.id, sellerId: seller.id };
    const teak = await createProduct(t.db, refs, { productName: 'Teak plover dresser' });
    const oak = await createProduct(t.db, refs, { productName: 'Oak plover chair' });
    const table = await createProduct(t.db, refs, { productName: 'Plover table', inStock: 'sold' });
    await expectNameWordsFresh('inserted');

    await t.db.update(products).set({ productName: 'Walnut plover dresser, dresser' }).where(eq(products.id, teak.id));
    await expectNameWordsFresh('renamed, a word twice');
    await t.db.update(products).set({ postedAt: new Date(Date.UTC(2024, 5, 1)) }).where(eq(products.id, oak.id));
    await expectNameWordsFresh('posting time moved');
    await t.db.update(products).set({ description: 'Newly oiled', state: 'sold', inStock: 'sold' }).where(eq(products.id, oak.id));
    await expectNameWordsFresh('edited but for its name');
    await t.db
      .update(products)
      .set({ productName: sql`${products.productName} || ' stool'` })
      .where(eq(products.sellerId, seller.id));
    await expectNameWordsFresh('every listing of a seller renamed in one statement');
    await t.db.delete(products).where(inArray(products.id, [table.id, teak.id]));
    await expectNameWordsFresh('deleted');
  });

  it('gives a search of one word or several the pieces and the order the listings give, page by page', async () => {
    const { category } = await seededCatalogue(150);
    // Read from the name index first, then, once the words name many listings, through the list.
    for (const through of ['name index', 'list']) {
      if (through === 'list') await nameTheWordsOften();
      for (const words of ['quillon dresser', 'dresser quillon stool', 'oak quillon', 'mirror dresser', 'brass chest stool', 'quillon', 'stool']) {
        const expected = await relevanceOrder(category.id, words);
        expect(expected.length, words).toBeGreaterThan(0);
        expect(await walk({ categoryId: category.id, q: words }, 7), `${words}, ${through}`).toEqual(expected);
        // The first page ranks the newest named pieces in one read.
        expect((await search({ categoryId: category.id, q: words })).data.map((product) => product._id), `${words}, ${through}`).toEqual(expected.slice(0, 24));
      }
    }
  });

  it('reads the pieces one word names, when it names many, through its list, never parsing every listing’s name newest first', async () => {
    await nameTheWordsOften();
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      for (const shape of [{ name: 'first page', query: { q: 'quillon' } }, { name: 'page 3', query: { q: 'quillon' }, page: 3 }]) {
        const pages = (await planSearch(client, shape, 10)).filter(({ statement }) => statement.startsWith('select "products"."id"'));
        expect(pages.length, shape.name).toBeGreaterThan(0);
        for (const { statement } of pages) {
          expect(statement, shape.name).toContain('inner join "search_name_words" "listed"');
          expect(statement, shape.name).not.toContain(`to_tsvector('furniture_search'::regconfig, "products"."product_name") @@`);
        }
      }
    } finally {
      await client.end();
    }
  });

  it('keeps a walk of several words stable while named pieces are added, renamed, renamed into the words and deleted', async () => {
    await nameTheWordsOften();
    const { refs, category, made } = await seededCatalogue(150);
    const query = { categoryId: category.id, q: 'quillon dresser' };
    const before = await relevanceOrder(category.id, 'quillon dresser');
    const oldest = [...made].sort((a, b) => a.postedAt.getTime() - b.postedAt.getTime());
    // Pieces the walk has not reached when they change: a named one renamed away and one deleted
    // (both among the oldest named), and the oldest piece of all renamed into the words.
    const namedOldest = oldest.filter((product) => before.includes(product.id) && /quillon/i.test(product.productName) && /dresser/i.test(product.productName));
    const [renamedAway, deleted] = namedOldest;
    const renamedIn = oldest.find((product) => !before.includes(product.id) && product.inStock === 'available')!;
    const added: string[] = [];
    const seen = await walk(query, 5, async (page) => {
      if (page === 0) {
        await t.db.update(products).set({ productName: 'Plain bench' }).where(eq(products.id, renamedAway!.id));
        await t.db.delete(products).where(eq(products.id, deleted!.id));
        await t.db.update(products).set({ productName: 'Quillon dresser, restored' }).where(eq(products.id, renamedIn.id));
      }
      added.push((await createProduct(t.db, refs, { productName: `Quillon dresser added ${page}` })).id);
    });
    expect(new Set(seen).size).toBe(seen.length);
    const untouched = before.filter((id) => id !== renamedAway!.id && id !== deleted!.id);
    expect(seen.filter((id) => untouched.includes(id))).toEqual(untouched);
    expect(seen).not.toContain(renamedAway!.id);
    expect(seen).not.toContain(deleted!.id);
    // The oldest piece, renamed into the words before the walk reached the old named pieces, is among them.
    expect(seen).toContain(renamedIn.id);
    expect(added.filter((id) => seen.includes(id)).length).toBeGreaterThan(0);
    await expectNameWordsFresh('after the walk');
  });
});
