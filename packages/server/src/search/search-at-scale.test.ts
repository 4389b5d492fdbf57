import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACET_COUNT_LIMIT, type Product, type SearchResponse } from '@furniture/contract';
import pg from 'pg';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { seedCatalogue } from '../demo/catalogue-seed.ts';
import { planSearch, searchShapes } from './plans.ts';

const t = setupTestApp();
/** More listings than facets count, in the catalogue seed's categories and words. */
const SEEDED = 1_500;

async function search(query: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json() as SearchResponse;
}

async function searchAll(query: string, limit = 7) {
  const found: Product[] = [];
  let cursor: string | null = null;
  do {
    const body: SearchResponse = await search(`${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    found.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor);
  return found;
}

describe('search over a seeded catalogue', () => {
  beforeAll(async () => {
    await seedCatalogue(t.database.url, { products: SEEDED, publicUrl: 'http://localhost:5000' });
  });

  it('has an index for every shape of search: no plan reads the whole products table when sequential scans are off', async () => {
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ id: string }>(`select id from categories where category_name = 'Dressers'`);
      for (const shape of searchShapes(rows[0]!.id)) {
        // Small pages, so the deep ones are reached with a cursor in this small catalogue too.
        for (const { statement, plan, scansProducts } of await planSearch(client, shape, 3)) {
          expect(scansProducts, `${shape.name}: ${statement}\n${plan}`).toBe(false);
        }
      }
    } finally {
      await client.end();
    }
  });

  it('counts the facets of a place with a price from an index alone, without reading the listings', async () => {
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      // As a settled catalogue: every page of the table visible to all, statistics fresh.
      await client.query('vacuum analyze products');
      await client.query('set enable_seqscan = off');
      await client.query('set enable_bitmapscan = off');
      const query = { location: 'Dhanmondi', maxPrice: 300 };
      const facets = (await planSearch(client, { name: 'a place with a price', query })).filter(({ plan }) => /Group Key/.test(plan));
      expect(facets).toHaveLength(1);
      expect(facets[0]!.plan).toMatch(/Index Only Scan using products_place_facets_idx/);
    } finally {
      await client.end();
    }
  });

  it('finds words in a town through the index of each listing’s words under its place, on its first page and the later ones', async () => {
    const query = { q: 'oak', location: 'Dhaka' };
    const { rows: truth } = await t.db.execute<{ id: string }>(sql`
      select id from products
      where search_vector @@ to_tsquery('furniture_search', 'oak') and furniture_fold(location) like '%dhaka%'
        and in_stock = 'available' and state in ('available', 'reserved', 'sold') and moderation is null`);
    // Pages of three: more than two of them, each read through the cursor the page before gave.
    expect(truth.length).toBeGreaterThan(6);
    expect(truth.length).toBeLessThan(FACET_COUNT_LIMIT);
    const paged = (await searchAll(new URLSearchParams(query).toString(), 3)).map((product) => product._id);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged.toSorted()).toEqual(truth.map((row) => row.id).toSorted());
    expect((await search(new URLSearchParams(query).toString())).facets!.exact).toBe(true);

    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      for (const page of [1, 3]) {
        const plans = (await planSearch(client, { name: 'oak in Dhaka', query, page }, 3)).filter(({ statement }) => /from "products"/.test(statement));
        expect(plans.length, `page ${page}`).toBeGreaterThan(0);
        for (const { statement, plan } of plans) {
          // The first page's facets count through it and its page reads what they counted by id.
          if (!/"products"."id" = any/.test(statement)) expect(plan, statement).toMatch(/products_place_words_idx/);
          expect(plan, statement).not.toMatch(/products_search_vector_idx|products_place_posted_idx/);
        }
      }
    } finally {
      await client.end();
    }
  });

  it('reads a town’s matches of a word too common there to collect through the word’s lists, page after page, in order and complete', async () => {
    // More listings in one town than are collected and sorted: named "Oak …", or holding the word in their
    // description only, or not at all; and more of the word elsewhere than the town holds listings,
    // newer, which the word's lists, read newest first, hold before the town's.
    const listed = (name: SQL, description: SQL, location: string, from: number, to: number) => t.db.execute(sql`
      insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock, posted_at)
      select p.category_id, p.seller_id, p.condition, ${name}, p.years_of_used_product, p.original_price, p.resale_price, ${description}, p.phone, ${location}, p.product_image, p.state, p.in_stock,
        -- Some listings posted at the same moment: the cursor's id tells them apart.
        timestamptz '2026-01-01' + (g / 3) * interval '1 minute'
      from (select * from products where in_stock = 'available' limit 1) p, generate_series(${from}::int, ${to}::int) g`);
    await listed(sql`'Oak ' || p.product_name`, sql`p.description`, 'Sreemangal', 1, FACET_COUNT_LIMIT + 100);
    await listed(sql`'Plain stool'`, sql`'Sat by an oak door'`, 'Sreemangal', 2_001, 2_080);
    await listed(sql`'Plain stool'`, sql`'Sat by the door'`, 'Sreemangal', 3_001, 3_040);
    await listed(sql`'Oak ' || p.product_name`, sql`p.description`, 'Moulvibazar', 4_001, 4_400);
    const [counts] = (
      await t.db.execute<{ town: number; anywhere: number; named: number }>(sql`
        select (select sum(listings) from search_place_counts where place = 'sreemangal')::int as town,
               (select sum(listings) from search_word_counts where term = 'oak')::int as anywhere,
               (select listings from search_name_word_counts where term = 'oak')::int as named`)
    ).rows;
    expect(counts!.town).toBeLessThan(Math.min(counts!.anywhere, counts!.named));

    const { rows: truth } = await t.db.execute<{ id: string; named: boolean }>(sql`
      select id, search_vector @@ to_tsquery('furniture_search', 'oak:A') as named from products
      where search_vector @@ to_tsquery('furniture_search', 'oak') and furniture_fold(location) = 'sreemangal'
        and in_stock = 'available' and state in ('available', 'reserved', 'sold') and moderation is null
      order by posted_at desc, id desc`);
    expect(truth.length).toBeGreaterThan(FACET_COUNT_LIMIT);
    const newest = await searchAll('q=oak&location=Sreemangal&sort=newest', 100);
    expect(newest.map((product) => product._id)).toEqual(truth.map((row) => row.id));
    // By relevance: every named listing before every other, none twice, none left out.
    const relevant = (await searchAll('q=oak&location=Sreemangal', 100)).map((product) => product._id);
    const namedIds = new Set(truth.filter((row) => row.named).map((row) => row.id));
    expect(relevant.toSorted()).toEqual(truth.map((row) => row.id).toSorted());
    expect(relevant.slice(0, namedIds.size).every((id) => namedIds.has(id))).toBe(true);

    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      await client.query('analyze products');
      for (const query of [{ q: 'oak', location: 'Sreemangal' }, { q: 'oak', location: 'Sreemangal', sort: 'newest' as const }]) {
        for (const page of [1, 3]) {
          const pages = (await planSearch(client, { name: 'oak in Sreemangal', query, page })).filter(({ statement }) => statement.startsWith('select "products"."id"'));
          expect(pages.length, `${query.sort} page ${page}`).toBeGreaterThan(0);
          // Each page reads the word's list newest first, passing over the other town's listings: the
          // names' list by relevance (these pages are among the named listings), the documents' newest first.
          const list = query.sort === 'newest' ? /search_document_words/ : /search_name_words/;
          for (const { statement, plan } of pages) {
            expect(plan, statement).toMatch(list);
            expect(plan, statement).not.toMatch(/products_place_posted_idx/);
          }
        }
      }

      // A page after a cursor among the older named listings bounds its scan by that cursor alone. With
      // the ranked tier's end as well, PostgreSQL started the index scan there and read every entry
      // down to the cursor, so each page cost more than the one before.
      for (const query of [{ q: 'oak', location: 'Sreemangal' }, { q: 'oak' }]) {
        const named = (await planSearch(client, { name: 'older named listings', query, page: 3 })).filter(({ statement }) => statement.includes(`'2|' ||`));
        expect(named, query.location ?? 'everywhere').toHaveLength(1);
        expect(named[0]!.plan.match(/ROW\(posted_at, (id|product_id)\) </g), named[0]!.plan).toHaveLength(1);
      }

      // By relevance, the page reaching the listings that only mention the word counts them from the
      // place words' index, and it and the later pages collect those few from it, instead of reading
      // every older listing of the town, or the word's list in a town and its neighbour. (Pages of
      // 100: the one whose last row, or the row past it that says another page follows, is not named;
      // when that page ends with a named listing, the next starts among them and counts again.)
      const reaching = Math.floor((namedIds.size - 1) / 100) + 1;
      const counting = (page: number) => page === reaching || (page === reaching + 1 && namedIds.size % 100 === 0);
      const othersOf = async (location: string, page: number) => {
        const plans = await planSearch(client, { name: `oak in ${location}`, query: { q: 'oak', location }, page }, 100);
        const counts = plans.filter(({ statement }) => statement.startsWith('select count(*)'));
        return { counts, others: plans.filter(({ statement }) => statement.includes(`'3|' ||`)) };
      };
      const collectsOthers = async (location: string, others: number) => {
        for (let page = reaching; page <= Math.ceil((namedIds.size + others) / 100); page++) {
          const plans = await othersOf(location, page);
          expect(plans.counts, `${location}, page ${page}`).toHaveLength(counting(page) ? 1 : 0);
          expect(plans.others, `${location}, page ${page}`).toHaveLength(1);
          for (const { statement, plan } of [...plans.counts, ...plans.others]) {
            expect(plan, statement).toMatch(/products_place_words_idx/);
            expect(plan, statement).not.toMatch(/products_place_posted_idx|search_document_words/);
          }
        }
      };
      await collectsOthers('Sreemangal', truth.length - namedIds.size);

      // None left in the town, one in another: the last page counts none and reads no third tier.
      await listed(sql`'Plain stool'`, sql`'Sat by an oak door'`, 'Moulvibazar', 4_501, 4_501);
      await t.db.execute(sql`update products set description = 'Sat by the door' where description = 'Sat by an oak door' and location = 'Sreemangal'`);
      const namedOnly = await searchAll('q=oak&location=Sreemangal', 100);
      expect(namedOnly.map((product) => product._id).toSorted()).toEqual([...namedIds].toSorted());
      const last = await othersOf('Sreemangal', Math.ceil(namedIds.size / 100));
      expect(last.counts).toHaveLength(1);
      expect(last.others).toHaveLength(0);
      // None anywhere: the stored word counts say every listing holding the word names it, so neither
      // the town's last page nor the whole catalogue's counts or reads a third tier.
      await t.db.execute(sql`update products set description = 'Sat by the door' where description = 'Sat by an oak door'`);
      const [inTown, everywhere] = [await othersOf('Sreemangal', Math.ceil(namedIds.size / 100)), await planSearch(client, { name: 'oak', query: { q: 'oak' }, page: 1_000 }, 100)];
      expect(inTown).toEqual({ counts: [], others: [] });
      expect(everywhere.filter(({ statement }) => statement.startsWith('select count(*)') || statement.includes(`'3|' ||`))).toEqual([]);

      // Two places (the town and its station): the word's lists are read in order, and the few others collected.
      await listed(sql`'Plain stool'`, sql`'Sat by an oak door'`, 'Sreemangal Station', 5_001, 5_005);
      await client.query('analyze products');
      const twoPlaces = (await searchAll('q=oak&location=Sreemangal', 100)).map((product) => product._id);
      expect(twoPlaces).toHaveLength(namedIds.size + 5);
      expect(twoPlaces.slice(0, namedIds.size).toSorted()).toEqual([...namedIds].toSorted());
      await collectsOthers('Sreemangal', 5);
    } finally {
      await client.end();
    }
  });

  it('collects and sorts the few matches of a word in no name, or of words seldom together, instead of reading the listings in order', async () => {
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      for (const query of [{ q: 'bogura' }, { q: 'oak walnut' }, { q: 'oak walnut', sort: 'newest' as const }, { q: 'bogura', sort: 'price-asc' as const }]) {
        const pages = (await planSearch(client, { name: query.q, query })).filter(({ statement }) => statement.startsWith('select "products"."id"'));
        expect(pages.length, query.q).toBeGreaterThan(0);
        for (const { statement, plan } of pages) expect(plan, `${query.q}: ${statement}`).toMatch(/Sort Key: \(\(products\.resale_price \* '0'::numeric\)\)/);
      }
    } finally {
      await client.end();
    }
  });

  it(`counts facets over at most ${FACET_COUNT_LIMIT} matches: beyond, the counts are lower bounds and say so`, async () => {
    const broad = await search('inStock=false');
    expect(broad.facets!.exact).toBe(false);
    const counted = Object.values(broad.facets!.condition).reduce((sum, count) => sum + count, 0);
    expect(counted).toBeGreaterThanOrEqual(FACET_COUNT_LIMIT);
    expect(counted).toBeLessThan(SEEDED);

    const narrow = await search('q=walnut%20dresser&inStock=false');
    expect(narrow.facets!.exact).toBe(true);
    const all = await searchAll('q=walnut%20dresser&inStock=false');
    expect(Object.values(narrow.facets!.condition).reduce((sum, count) => sum + count, 0)).toBe(all.length);
  });

  it('counts a one-word search exactly at any number of matches, from word counts the seed and every insert keep true', async () => {
    const truth = async (word: string) => {
      const { rows } = await t.db.execute<{ condition: string; listings: number }>(sql`
        select condition::text, count(*)::int as listings from products
        where search_vector @@ to_tsquery('furniture_search', ${word}) and in_stock = 'available' and state in ('available', 'reserved', 'sold') and moderation is null
        group by condition`);
      return { Excellent: 0, Good: 0, Fair: 0, ...Object.fromEntries(rows.map((row) => [row.condition, row.listings])) };
    };
    // A word of the seed, counted once when it finished.
    expect((await search('q=free')).facets).toMatchObject({ condition: await truth('free'), exact: true });
    // More listings holding a new word than facets would count, added in one statement.
    await t.db.execute(sql`
      insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock)
      select category_id, seller_id, condition, 'Zephyrine ' || product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock
      from products limit ${FACET_COUNT_LIMIT + 200}`);
    const counts = await truth('zephyrine');
    expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(FACET_COUNT_LIMIT);
    expect((await search('q=zephyrine')).facets).toMatchObject({ condition: counts, exact: true });
  });

  it('corrects a misspelt word to the catalogue word a person meant, and puts the listings it names first', async () => {
    for (const [typo, word] of [
      ['chiar', 'chair'],
      ['sofaa', 'sofa'],
      ['walnutt', 'walnut'],
      ['tabel', 'table'],
      ['dreser', 'dresser'],
      ['dresr', 'dresser'],
      ['wardobe', 'wardrobe'],
      ['wardrboe', 'wardrobe'],
      ['wálnutt', 'walnut'],
      ['Scandanavian', 'scandinavian'],
      ['CAFÉE', 'café'],
    ]) {
      const { data } = await search(`q=${encodeURIComponent(typo!)}`);
      const named = data.map((product) => product.productName.toLowerCase().includes(word!));
      expect(named[0], typo).toBe(true);
      // The listings named by the word come first (then those of its category, for a rarer word).
      expect(named, typo).toEqual([...named].sort().reverse());
    }
  });

  it('lists the seed’s listings under their name and document words, as the triggers would have', async () => {
    const missing = await t.db.execute(sql`
      select unnest(tsvector_to_array(to_tsvector('furniture_search', product_name))) as term, posted_at, id from products
      except select term, posted_at, product_id from search_name_words`);
    expect(missing.rows).toEqual([]);
    const documentWords = await t.db.execute<{ missing: number; listed: number; held: number }>(sql`
      select (select count(*) from (
                select unnest(tsvector_to_array(search_vector)), posted_at, id from products
                except select term, posted_at, product_id from search_document_words) as m)::int as missing,
             (select count(*) from search_document_words)::int as listed,
             (select sum(length(search_vector)) from products)::int as held`);
    expect(documentWords.rows[0]!.missing).toBe(0);
    expect(documentWords.rows[0]!.listed).toBe(documentWords.rows[0]!.held);
    const miscounted = await t.db.execute(sql`
      select term from search_name_word_counts k where listings <> (select count(*) from search_name_words w where w.term = k.term)`);
    expect(miscounted.rows).toEqual([]);
    const [{ walnut }] = (await t.db.execute<{ walnut: number }>(sql`select listings as walnut from search_name_word_counts where term = 'walnut'`)).rows as [{ walnut: number }];
    expect(walnut).toBeGreaterThan(0);
    // Two words: through the list, the same listings as the name index gives.
    const named = await t.db.execute<{ id: string }>(sql`
      select id from products where to_tsvector('furniture_search', product_name) @@ to_tsquery('furniture_search', 'walnut & dresser')
        and in_stock = 'available' and state = 'available' and moderation is null`);
    const found = await searchAll('q=walnut%20dresser', 24);
    expect(found.slice(0, named.rows.length).map((product) => product._id).sort()).toEqual(named.rows.map((row) => row.id).sort());
  });

  it('keeps a word the catalogue holds as it is, and finds nothing for a word like none of it', async () => {
    // "bench" is one edit from "beech", a word of the catalogue too.
    const { data } = await search('q=bench');
    expect(data.length).toBeGreaterThan(0);
    for (const product of data) expect(product.productName.toLowerCase()).toContain('bench');
    expect((await search('q=qxzvjk')).data).toEqual([]);
    expect((await search('q=oak%20qxzvjk')).data).toEqual([]);
  });
});

describe('relevance', () => {
  it('lists the listings named by the words first, then those matching them elsewhere, newest first in each, page after page', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db, { categoryName: 'Quokka corner' });
    const refs = { categoryId: category.id, sellerId: seller.id };
    const at = (day: number) => new Date(Date.UTC(2025, 0, day));
    const listed = [
      { productName: 'Quokka chair', postedAt: at(1) },
      { productName: 'Plain stool', description: 'A quokka sat here', postedAt: at(9) },
      { productName: 'Quokka table', postedAt: at(5) },
      { productName: 'Plain bench', postedAt: at(7) },
      { productName: 'Plain shelf', description: 'Quokka proof', postedAt: at(3), categoryId: (await createCategory(t.db)).id },
      { productName: 'Plain desk', location: 'Quokka Island', postedAt: at(2), categoryId: (await createCategory(t.db)).id },
      { productName: 'Plain lamp', postedAt: at(8), categoryId: (await createCategory(t.db)).id },
    ];
    for (const { categoryId, ...product } of listed) await createProduct(t.db, { ...refs, ...(categoryId ? { categoryId } : {}) }, product);

    // The named ones, then the rest: in the description, the category ("Quokka corner") or the location.
    const expected = ['Quokka table', 'Quokka chair', 'Plain stool', 'Plain bench', 'Plain shelf', 'Plain desk'];
    expect((await search('q=quokka&limit=24')).data.map((product) => product.productName)).toEqual(expected);
    expect((await searchAll('q=quokka', 2)).map((product) => product.productName)).toEqual(expected);
  });
});
