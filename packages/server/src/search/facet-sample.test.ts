import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roundedEstimate, type Condition, type SearchResponse } from '@furniture/contract';
import pg from 'pg';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import type { App } from '../app.ts';
import { createCategory, createUser } from '../demo/factories.ts';
import { searchCatalogue } from './search.ts';
import { planSearch } from './plans.ts';

/** Lowered from FACET_SAMPLE_FROM, so a few thousand listings make a word broad. */
const SAMPLE_FROM = 1_000;
const t = setupTestApp({ facetSampleFrom: SAMPLE_FROM });
/** A second app server on the same database, with its own cached counts. */
const second = setupSecondApp(t);

/** The fixed sample's predicate and share (migration 0020). */
const SHARE = 3 / 256;
const inSample = sql`get_byte(uuid_send(id), 15) < 3`;

async function search(app: App, query: string) {
  const response = await app.inject({ method: 'GET', url: `/api/products?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SearchResponse>();
}

let seller: string;
let tables: string;
let chairs: string;

/** `count` listings named `name`, with random ids (all in the sample if `sampled`), in one statement. */
async function addListings(name: string, count: number, categoryId: string, condition: Condition, sampled = false, location = 'Dhaka') {
  // A random id whose last byte is set to 1 is in the sample.
  const id = sampled ? sql`encode(set_byte(uuid_send(gen_random_uuid()), 15, 1), 'hex')::uuid` : sql`gen_random_uuid()`;
  await t.db.execute(sql`
    insert into products (id, category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock)
    select ${id}, ${categoryId}, ${seller}, ${condition}, ${name}, '2 years', 300, 150, 'Solid and clean',
      '01700000000', ${location}, 'https://images.example.com/product.webp', 'available', 'available'
    from generate_series(1, ${count})`);
  // Statistics as a settled catalogue has them, whether or not the server runs autovacuum: on a
  // server without it, two searches over these never-analyzed listings took over 30 s each.
  await t.db.execute(sql`analyze products`);
}

/** What a sampled estimate of `word`'s facets by condition must be: its matches in the sample scaled, at most the true count, rounded. */
async function expectedEstimate(word: string) {
  const { rows } = await t.db.execute<{ condition: Condition; seen: number; listings: number }>(sql`
    select condition::text, count(*) filter (where ${inSample})::int as seen, count(*)::int as listings
    from products where search_vector @@ to_tsquery('furniture_search', ${word}) group by condition, category_id`);
  const byCondition: Record<string, number> = {};
  for (const { condition, seen, listings } of rows) byCondition[condition] = (byCondition[condition] ?? 0) + Math.min(seen / SHARE, listings);
  const total = rows.reduce((sum, row) => sum + row.listings, 0);
  return { condition: Object.fromEntries(Object.entries(byCondition).map(([condition, count]) => [condition, roundedEstimate(count)])), total };
}

describe('facet counts of a broad search, estimated from the fixed sample', () => {
  beforeAll(async () => {
    seller = (await createUser(t.db, { role: 'seller', password: null })).id;
    tables = (await createCategory(t.db)).id;
    chairs = (await createCategory(t.db)).id;
    // A broad word: 6,000 listings, so about 70 in the sample.
    await addListings('Zephyrine table', 3_000, tables, 'Good');
    await addListings('Zephyrine table', 1_500, tables, 'Fair');
    await addListings('Zephyrine chair', 1_500, chairs, 'Excellent');
    // Two broad words seldom together: 5 listings hold both.
    await addListings('Quorvel table', 2_000, tables, 'Good');
    await addListings('Brindle chair', 2_000, chairs, 'Good');
    await addListings('Quorvel brindle stool', 5, chairs, 'Fair');
    // A narrow word, every listing of it in the sample: the sample would hold plenty.
    await addListings('Lanthorn table', 300, tables, 'Good', true);
  });

  it('estimates a broad word in a place from the sample’s listings in that place alone', async () => {
    await addListings('Marlowe desk', 2_000, tables, 'Good');
    await addListings('Marlowe desk', 2_000, tables, 'Fair', false, 'Rajshahi');
    // Enough of them in the sample to estimate from, whatever the random ids.
    await addListings('Marlowe desk', 40, tables, 'Fair', true, 'Rajshahi');
    const { facets } = await search(t.app, 'q=marlowe&location=rajshahi');
    // The desks in Dhaka are all Good: none of them is counted, though the word's Good ones are many.
    expect(facets).toEqual({ condition: { Good: 0, Fair: roundedEstimate(2_040) }, category: { [tables]: roundedEstimate(2_040) }, exact: false, estimated: true });
  });

  it('counts a broad word in a town first when the town’s share of it is too few for the sample, and asks the sample no more', async () => {
    // The town holds 25 of the catalogue's thousands of listings: its share of "zephyrine" in the sample would be none.
    await addListings('Zephyrine table', 25, tables, 'Fair', false, 'Sylhet');
    const { facets } = await search(t.app, 'q=zephyrine&location=sylhet&maxPrice=1000');
    expect(facets).toEqual({ condition: { Excellent: 0, Good: 0, Fair: 25 }, category: { [tables]: 25 }, exact: true, estimated: false });
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      const plans = await planSearch(client, { name: 'a small town', query: { q: 'zephyrine', location: 'Sylhet', maxPrice: 1000 }, facetSampleFrom: SAMPLE_FROM });
      // The matches counted once, as the facets of any search: by condition and category.
      expect(plans.filter(({ statement }) => statement.startsWith('select "condition", "category_id", count(*)'))).toHaveLength(1);
      expect(plans.some(({ statement }) => statement.includes('get_byte'))).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('answers estimates of a broad search, flagged as such, scaled from the sample and near the true counts', async () => {
    // A price bound, so that the counts are not those stored for one word alone.
    const { facets } = await search(t.app, 'q=zephyrine&maxPrice=1000');
    const { condition, total } = await expectedEstimate('zephyrine');
    expect(facets).toMatchObject({ exact: false, estimated: true, condition });
    const estimated = Object.values(facets!.condition).reduce((sum, count) => sum + count, 0);
    expect(Math.abs(estimated - total) / total).toBeLessThan(0.4);
    // Each category's estimate too: no more than the listings hold.
    expect(facets!.category[tables]).toBeLessThanOrEqual(4_500);
    expect(facets!.category[chairs]).toBeLessThanOrEqual(1_500);

    // Two broad words, one never in a chair: chairs hold none, not "a few" the sample missed.
    const { facets: both } = await search(t.app, 'q=zephyrine%20table&maxPrice=1000');
    expect(both).toMatchObject({ exact: false, estimated: true });
    expect(Object.keys(both!.category)).toEqual([tables]);
  });

  it('counts a narrow search exactly, as before', async () => {
    const { facets } = await search(t.app, 'q=lanthorn&maxPrice=1000');
    expect(facets).toEqual({ condition: { Excellent: 0, Good: 300, Fair: 0 }, category: { [tables]: 300 }, exact: true, estimated: false });
  });

  it('counts two broad words seldom together exactly, and collects their page as before', async () => {
    const { facets, data } = await search(t.app, 'q=quorvel%20brindle&maxPrice=1000');
    expect(facets).toEqual({ condition: { Excellent: 0, Good: 0, Fair: 5 }, category: { [chairs]: 5 }, exact: true, estimated: false });
    const unsampled = await searchCatalogue(t.db, { q: 'quorvel brindle', maxPrice: 1000 }, {}, { facetSampleFrom: Infinity });
    expect(data.map((product) => product._id)).toEqual(unsampled.rows.map((product) => product.id));
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      const shape = { name: 'seldom together', query: { q: 'quorvel brindle', maxPrice: 1000 }, facetSampleFrom: SAMPLE_FROM };
      const plans = await planSearch(client, shape);
      // The sample was asked, found too few to say, and the matches were counted.
      expect(plans.some(({ statement }) => statement.includes('get_byte'))).toBe(true);
      const pages = plans.filter(({ statement }) => statement.startsWith('select "products"."id"'));
      expect(pages.length).toBeGreaterThan(0);
      for (const { plan } of pages) expect(plan).toMatch(/Sort Key: \(\(products\.resale_price \* '0'::numeric\)\)/);
    } finally {
      await client.end();
    }
  });

  it('reads the few matches it counted by id, and no page when they leave none in the condition asked for', async () => {
    // Good chairs hold both words often enough, by the word counts alone, for more than a page collects and sorts.
    await addListings('Quorvel bench', 1_100, chairs, 'Good');
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      // Two listings only mention both words: after the five named by them.
      await t.db.execute(sql`
        insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock)
        select ${chairs}, ${seller}, 'Fair', 'Plain stool', '2 years', 300, 150, 'Goes with the quorvel brindle set', '01700000000', 'Dhaka',
          'https://images.example.com/product.webp', 'available', 'available'
        from generate_series(1, 2)`);
      const idsOf = async (name: string) =>
        (await t.db.execute<{ id: string }>(sql`select id::text from products where product_name = ${name}`)).rows.map((row) => row.id).sort();
      const { data } = await search(t.app, 'q=quorvel%20brindle&maxPrice=1000');
      const found = data.map((product) => product._id);
      expect(found.slice(0, 5).sort()).toEqual(await idsOf('Quorvel brindle stool'));
      expect(found.slice(5).sort()).toEqual(await idsOf('Plain stool'));
      // The facets counted the seven; the page read them by id, not through the words' index again.
      const query = { q: 'quorvel brindle', maxPrice: 1000 };
      const pages = (await planSearch(client, { name: 'counted', query, facetSampleFrom: SAMPLE_FROM })).filter(({ statement }) => statement.startsWith('select "products"."id"'));
      expect(pages.length).toBeGreaterThan(0);
      for (const { statement, plan } of pages) {
        expect(statement).toContain('"products"."id" = any(');
        expect(plan).not.toMatch(/products_(search_vector|name_search)_idx/);
      }

      const none = await search(t.app, 'q=quorvel%20brindle&condition=Good&maxPrice=1000');
      expect(none.data).toEqual([]);
      expect(none.facets).toEqual({ condition: { Excellent: 0, Good: 0, Fair: 7 }, category: {}, exact: true, estimated: false });
      const plans = await planSearch(client, { name: 'none in the condition', query: { ...query, condition: ['Good'] }, facetSampleFrom: SAMPLE_FROM });
      // The sample and then the listings were counted; no page was read.
      expect(plans.some(({ statement }) => statement.includes('get_byte'))).toBe(true);
      expect(plans.filter(({ statement }) => statement.startsWith('select "products"."id"'))).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('counts a listing added to the sample on the next search of every server', async () => {
    const query = 'q=zephyrine&maxPrice=1000&sort=newest';
    const stools = (await createCategory(t.db)).id;
    for (const app of [t.app, second.app]) expect((await search(app, query)).facets!.category[stools]).toBeUndefined();
    await addListings('Zephyrine stool', 1, stools, 'Excellent', true);
    // Seen in the sample, and no more than the one listing the word's stored counts hold there.
    for (const app of [t.app, second.app]) expect((await search(app, query)).facets!.category[stools]).toBe(1);
  });
});
