import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { categories, products } from '../db/schema/index.ts';
import { NAME_INDEX_UP_TO, RANKED_BY_NAME } from './thresholds.ts';
import { planSearch, type SearchShape } from './plans.ts';

const t = setupTestApp();

type Listed = { term: string; posted_at: string; product_id: string };
const byKey = (rows: Listed[]) => [...rows].sort((a, b) => `${a.term}|${a.posted_at}|${a.product_id}`.localeCompare(`${b.term}|${b.posted_at}|${b.product_id}`));

/** The document words' list the triggers maintained equals one made afresh from the listings' documents. */
async function expectDocumentWordsFresh(step: string) {
  const stored = await t.db.execute<Listed>(sql`select term, posted_at::text, product_id::text from search_document_words`);
  const fresh = await t.db.execute<Listed>(sql`
    select distinct unnest(tsvector_to_array(search_vector)) as term, posted_at::text, id::text as product_id from products`);
  expect(byKey(stored.rows), step).toEqual(byKey(fresh.rows));
}

/** The name words' list and counts the triggers maintained equal those made afresh from the listings. */
async function expectNameWordsFresh(step: string) {
  const stored = await t.db.execute<Listed>(sql`select term, posted_at::text, product_id::text from search_name_words`);
  const fresh = await t.db.execute<Listed>(sql`
    select distinct unnest(tsvector_to_array(to_tsvector('furniture_search', product_name))) as term, posted_at::text, id::text as product_id
    from products`);
  expect(byKey(stored.rows), step).toEqual(byKey(fresh.rows));
  const counts = await t.db.execute(sql`
    select coalesce(k.term, f.term) as term, k.listings as stored, f.listings as fresh
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

/** Every page of a search, `limit` listings a page; `between` runs before each next page. */
async function readAll(query: Record<string, string | number>, limit: number, between: (page: number) => Promise<void> = async () => {}) {
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
 * newest RANKED_BY_NAME listings named by every word best named first, the older named listings newest
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
  const ranked = named.slice(0, RANKED_BY_NAME).sort((a, b) => b.rank - a.rank);
  return [...ranked, ...named.slice(RANKED_BY_NAME), ...rows.filter((row) => !row.named)].map((row) => row.id);
}

const materials = ['Quillon', 'Brass', 'Ashen', 'Rustic', 'Quillon oak'];
const kinds = ['dresser', 'chest', 'dresser with mirror', 'bureau', 'tall dresser'];

/** A category of many listings whose names mix a few words, posted at times unlike their order of insertion. */
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
        // Some only mention the words, so the last tier is read too.
        description: index % 6 === 0 ? 'Matches a quillon dresser' : 'Solid and clean',
        postedAt: new Date(Date.UTC(2025, 0, 1, 0, (index * 37) % size)),
        ...(index % 11 === 0 ? { inStock: 'sold' as const } : {}),
      }),
    );
  }
  return { refs, category, made };
}

/**
 * More listings than NAME_INDEX_UP_TO named by every word the tests search for, older than theirs,
 * so that searches go through the words' lists: in a category of their own, or `soldIn` the
 * tests' category. Sold, they are not among what a search shows by default, yet the stored word
 * counts (what the public may see, sold listings included) say the words are common in that
 * category: a first page, whose facets count what it shows, collects its few matches, and the
 * pages after it read the lists in order.
 */
async function nameTheWordsOften({ soldIn }: { soldIn?: string } = {}) {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const categoryId = soldIn ?? (await createCategory(t.db)).id;
  const stock = soldIn ? 'sold' : 'available';
  await t.db.execute(sql`
    insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, posted_at, in_stock, state)
    select ${categoryId}, ${seller.id}, 'Good', 'Quillon oak dresser chest with mirror, bureau, stool, brass ' || i, '1 year', 100, 50, 'Old', '01700000000', 'Dhaka',
           'https://images.example.com/filler.webp', timestamptz '2020-01-01' + i * interval '1 minute', ${stock}, ${stock}
    from generate_series(1, ${NAME_INDEX_UP_TO + 1}) as i`);
  return categoryId;
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

  it('gives a search of one word or several the listings and the order the listings give, page by page', async () => {
    const { category } = await seededCatalogue(150);
    // Read from the name index first, then, once the words name many listings, through the list.
    for (const through of ['name index', 'list']) {
      if (through === 'list') await nameTheWordsOften({ soldIn: category.id });
      for (const words of ['quillon dresser', 'dresser quillon stool', 'oak quillon', 'mirror dresser', 'brass chest stool', 'quillon', 'stool']) {
        const expected = await relevanceOrder(category.id, words);
        expect(expected.length, words).toBeGreaterThan(0);
        expect(await readAll({ categoryId: category.id, q: words }, 7), `${words}, ${through}`).toEqual(expected);
        // The first page ranks the newest named listings in one read.
        expect((await search({ categoryId: category.id, q: words })).data.map((product) => product._id), `${words}, ${through}`).toEqual(expected.slice(0, 24));
      }
    }
  });

  it('reads the listings one word names, when it names many, through its list, never parsing every listing’s name newest first', async () => {
    await nameTheWordsOften();
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      for (const shape of [{ name: 'first page', query: { q: 'quillon' } }, { name: 'page 3', query: { q: 'quillon' }, page: 3 }]) {
        const pages = (await planSearch(client, shape, 10)).filter(({ statement }) => statement.startsWith('select "products"."id"'));
        expect(pages.length, shape.name).toBeGreaterThan(0);
        for (const { statement } of pages) {
          expect(statement, shape.name).toContain('inner join "search_name_words" as "listed"');
          expect(statement, shape.name).not.toContain(`to_tsvector('furniture_search'::regconfig, "products"."product_name") @@`);
        }
      }
    } finally {
      await client.end();
    }
  });

  it('keeps paging of several words stable while named listings are added, renamed, renamed into the words and deleted', async () => {
    const { refs, category, made } = await seededCatalogue(150);
    await nameTheWordsOften({ soldIn: category.id });
    const query = { categoryId: category.id, q: 'quillon dresser' };
    const before = await relevanceOrder(category.id, 'quillon dresser');
    const oldest = [...made].sort((a, b) => a.postedAt.getTime() - b.postedAt.getTime());
    // Listings the pages have not reached when they change: a named one renamed away and one deleted
    // (both among the oldest named), and the oldest listing of all renamed into the words.
    const namedOldest = oldest.filter((product) => before.includes(product.id) && /quillon/i.test(product.productName) && /dresser/i.test(product.productName));
    const [renamedAway, deleted] = namedOldest;
    const renamedIn = oldest.find((product) => !before.includes(product.id) && product.inStock === 'available')!;
    const added: string[] = [];
    const seen = await readAll(query, 5, async (page) => {
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
    // The oldest listing, renamed into the words before the pages reached the old named listings, is among them.
    expect(seen).toContain(renamedIn.id);
    expect(added.filter((id) => seen.includes(id)).length).toBeGreaterThan(0);
    await expectNameWordsFresh('after paging');
  });
});

/** The matches of a search newest first, computed over the listings themselves. */
async function newestOrder(categoryId: string, words: string) {
  const { rows } = await t.db.execute<{ id: string }>(sql`
    select id::text from products
    where category_id = ${categoryId} and state = 'available' and moderation is null
      and search_vector @@ plainto_tsquery('furniture_search', ${words})
    order by posted_at desc, id desc`);
  return rows.map((row) => row.id);
}

/** The statements of a search's page that read listings, with their plans. */
async function pagePlans(query: SearchShape['query'], page: number, pageSize: number) {
  const client = new pg.Client({ connectionString: t.database.url });
  await client.connect();
  try {
    return (await planSearch(client, { name: 'page', query, page }, pageSize)).filter(({ statement }) => statement.startsWith('select "products"."id"'));
  } finally {
    await client.end();
  }
}

/** Which list each statement of a search's page reading listings goes through, if any. */
async function pageStatements(query: SearchShape['query'], page: number, pageSize: number) {
  return (await pagePlans(query, page, pageSize)).map(({ statement }) => /inner join "(search_\w+_words)" as "listed"/.exec(statement)?.[1] ?? 'none');
}

describe('the document words’ list', () => {
  it('matches a fresh list after inserts, an edited description, a moved posting time, a renamed category, edits of other columns and deletes', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db, { categoryName: 'Plover chests' });
    const refs = { categoryId: category.id, sellerId: seller.id };
    const teak = await createProduct(t.db, refs, { productName: 'Teak chest', description: 'Plover grain', location: 'Sylhet' });
    const oak = await createProduct(t.db, refs, { productName: 'Oak chest', description: 'Clean' });
    const sold = await createProduct(t.db, refs, { productName: 'Plover table', inStock: 'sold' });
    await expectDocumentWordsFresh('inserted');

    await t.db.update(products).set({ description: 'Walnut inlay, walnut feet' }).where(eq(products.id, teak.id));
    await expectDocumentWordsFresh('description edited, a word twice');
    await t.db.update(products).set({ postedAt: new Date(Date.UTC(2024, 5, 1)) }).where(eq(products.id, oak.id));
    await expectDocumentWordsFresh('posting time moved');
    await t.db.update(categories).set({ categoryName: 'Heron cabinets' }).where(eq(categories.id, category.id));
    await expectDocumentWordsFresh('category renamed');
    await t.db.update(products).set({ resalePrice: '12', state: 'sold', inStock: 'sold' }).where(eq(products.id, oak.id));
    await expectDocumentWordsFresh('edited but for its document');
    await t.db.delete(products).where(inArray(products.id, [sold.id, teak.id]));
    await expectDocumentWordsFresh('deleted');
  });

  it('gives the listings that only mention the words, and a search newest first, through the list of the word fewest listings hold, in the order the listings give', async () => {
    const { category } = await seededCatalogue(150);
    await nameTheWordsOften({ soldIn: category.id });
    for (const words of ['quillon dresser', 'dresser quillon', 'matches dresser']) {
      const query = { categoryId: category.id, q: words };
      expect(await readAll(query, 7), words).toEqual(await relevanceOrder(category.id, words));
      expect(await readAll({ ...query, sort: 'newest' }, 7), `${words}, newest`).toEqual(await newestOrder(category.id, words));
    }
    // Past the first page: the last page by relevance holds listings that only mention the words,
    // read through the document words, as is every page newest first.
    const pages = Math.ceil((await relevanceOrder(category.id, 'quillon dresser')).length / 7);
    expect(await pageStatements({ categoryId: category.id, q: 'quillon dresser' }, pages, 7)).toContain('search_document_words');
    for (const page of [2, 5]) {
      expect(await pageStatements({ categoryId: category.id, q: 'quillon dresser', sort: 'newest' }, page, 7), `newest, page ${page}`).toEqual(['search_document_words']);
    }
    // By price, the list's order is not the page's: the listings are read in price order as before.
    expect(await pageStatements({ categoryId: category.id, q: 'quillon dresser', sort: 'price-asc' }, 2, 7)).toEqual(['none']);
  });

  it('keeps paging newest first through the list stable while matches are added, edited out of the words and deleted', async () => {
    const { refs, category, made } = await seededCatalogue(150);
    await nameTheWordsOften({ soldIn: category.id });
    const query = { categoryId: category.id, q: 'quillon dresser', sort: 'newest' };
    const before = await newestOrder(category.id, 'quillon dresser');
    const oldest = [...made].sort((a, b) => a.postedAt.getTime() - b.postedAt.getTime()).filter((product) => before.includes(product.id));
    const [editedOut, deleted] = oldest;
    const added: string[] = [];
    const seen = await readAll(query, 5, async (page) => {
      if (page === 0) {
        await t.db.update(products).set({ productName: 'Plain bench', description: 'Plain' }).where(eq(products.id, editedOut!.id));
        await t.db.delete(products).where(eq(products.id, deleted!.id));
      }
      // Newer than every listing: pages read newest first have passed where it goes.
      added.push((await createProduct(t.db, refs, { productName: `Quillon dresser added ${page}` })).id);
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before.filter((id) => id !== editedOut!.id && id !== deleted!.id));
    expect(added.some((id) => seen.includes(id))).toBe(false);
    await expectDocumentWordsFresh('after paging');
  });
});

describe('a search within a category', () => {
  it('collects the few listings of a category holding a word common elsewhere, and reads none when no listing there holds it', async () => {
    const elsewhere = await nameTheWordsOften();
    const { category } = await seededCatalogue(150);
    // "oak" names the filler's 1,001 listings, and 30 of the category's.
    for (const sort of ['relevance', 'newest'] as const) {
      const query = { categoryId: category.id, q: 'oak', sort };
      expect(await readAll(query, 7), sort).toEqual(sort === 'newest' ? await newestOrder(category.id, 'oak') : await relevanceOrder(category.id, 'oak'));
      const plans = await pagePlans(query, 2, 7);
      expect(plans.length, sort).toBeGreaterThan(0);
      for (const { statement, plan } of plans) expect(plan, `${sort}: ${statement}`).toMatch(/Sort Key: \(\(products\.resale_price \* '0'::numeric\)\)/);
    }
    // "old" is in every filler listing's description and in none of the category's.
    const none = await search({ categoryId: category.id, q: 'old' });
    expect(none.data).toEqual([]);
    expect(none.nextCursor).toBeNull();
    expect(none.facets?.category[elsewhere]).toBeGreaterThan(NAME_INDEX_UP_TO);
    expect(await pagePlans({ categoryId: category.id, q: 'old' }, 1, 7)).toEqual([]);
  });
});
