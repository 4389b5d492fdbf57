import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conditions, type Product, type SearchResponse } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { RANKED_BY_NAME } from './thresholds.ts';
import { searchFingerprint } from './cursor.ts';
import { fitsInSpace, fitsThroughDoorway } from '../products/fit-geometry.ts';

const t = setupTestApp();

/** Each test searches its own category (or its own made-up words), so tests never see each other's rows. */
async function catalogue(name = 'Sofas') {
  const seller = await createUser(t.db, { role: 'seller', password: null });
  const category = await createCategory(t.db, { categoryName: `${name} ${Math.random().toString(36).slice(2, 8)}` });
  const refs = { categoryId: category.id, sellerId: seller.id };
  return { seller, category, refs };
}

async function search(query: Record<string, string | number | boolean | string[]>) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const response = await t.app.inject({ method: 'GET', url: `/api/products?${search}` });
  return { status: response.statusCode, body: response.json() as SearchResponse & { message?: string } };
}

const names = (products: Product[]) => products.map((product) => product.productName);

async function searchAll(query: Record<string, string | number | boolean | string[]>, limit = 2) {
  const found: Product[] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await search({ ...query, limit, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    found.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor);
  return found;
}

/** A well-formed cursor for the search, holding the sort key (and end of the ranked tier) given. */
function forgedCursor(sort: string, key: string, search: Record<string, string> = {}, rankedUntil?: string) {
  const fingerprint = searchFingerprint({ ...search, sort });
  const cursor = { s: sort, k: key, i: '00000000-0000-4000-8000-000000000000', f: fingerprint, ...(rankedUntil ? { r: rankedUntil } : {}) };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

describe('GET /api/products: words', () => {
  it('ranks a listing named by the words above one that only mentions them', async () => {
    const { refs } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Grey armchair', description: 'Goes well with a zanzibar sofa' });
    await createProduct(t.db, refs, { productName: 'Zanzibar sofa', description: 'Three seats, linen' });
    await createProduct(t.db, refs, { productName: 'Oak table', description: 'Solid oak' });

    const { status, body } = await search({ q: 'zanzibar sofa' });
    expect(status).toBe(200);
    expect(names(body.data)).toEqual(['Zanzibar sofa', 'Grey armchair']);
  });

  it('ranks the listings named by every word by how well the name matches: the words together, in a short name, first', async () => {
    const { refs } = await catalogue();
    const at = (day: number) => new Date(Date.UTC(2025, 1, day));
    await createProduct(t.db, refs, { productName: 'Chair of solid zelkova with a cushion', postedAt: at(5) });
    await createProduct(t.db, refs, { productName: 'Plain stool', description: 'Sits by a zelkova chair', postedAt: at(6) });
    await createProduct(t.db, refs, { productName: 'Zelkova dining chair', postedAt: at(4) });
    await createProduct(t.db, refs, { productName: 'Zelkova chair', postedAt: at(1) });
    await createProduct(t.db, refs, { productName: 'Old zelkova chair', postedAt: at(3) });
    await createProduct(t.db, refs, { productName: 'Zelkova table', postedAt: at(7) });

    const expected = ['Zelkova chair', 'Old zelkova chair', 'Zelkova dining chair', 'Chair of solid zelkova with a cushion', 'Plain stool'];
    expect(names((await search({ q: 'zelkova chair' })).body.data)).toEqual(expected);
    expect(names(await searchAll({ q: 'zelkova chair' }))).toEqual(expected);
    // Alike names keep the newest first.
    expect(names((await search({ q: 'zelkova' })).body.data).slice(0, 2)).toEqual(['Zelkova table', 'Zelkova chair']);
  });

  it('stems words, ignores accents and letter case, and matches category and location', async () => {
    const { refs, category } = await catalogue('Quillback');
    await createProduct(t.db, refs, { productName: 'Café chairs from Kraków', location: 'Szczecin' });
    expect(names((await search({ q: 'cafe CHAIR krakow' })).body.data)).toEqual(['Café chairs from Kraków']);
    expect(names((await search({ q: 'szczecin' })).body.data)).toEqual(['Café chairs from Kraków']);
    expect(names((await search({ q: category.categoryName.split(' ')[0]! })).body.data)).toEqual(['Café chairs from Kraków']);
  });

  it('still finds a listing when a word is misspelt', async () => {
    const { refs } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Walnut sideboard', description: 'Mid-century, six drawers' });
    expect(names((await search({ q: 'walnutt' })).body.data)).toEqual(['Walnut sideboard']);
    expect(names((await search({ q: 'sidebord drawrs' })).body.data)).toEqual(['Walnut sideboard']);
  });

  it('corrects a misspelt word to one that only an edit of a listing brought into the catalogue', async () => {
    const { refs } = await catalogue();
    const product = await createProduct(t.db, refs, { productName: 'Walnut sideboard', description: 'Six drawers' });
    await t.db.execute(sql`update products set product_name = 'Brindlequoth sideboard', description = 'Quorvex handles' where id = ${product.id}`);
    expect(names((await search({ q: 'brindlequth' })).body.data)).toEqual(['Brindlequoth sideboard']);
    expect(names((await search({ q: 'quorvx' })).body.data)).toEqual(['Brindlequoth sideboard']);
  });

  it('corrects a misspelt word to the commonest of the catalogue words as close to it', async () => {
    const { refs } = await catalogue();
    for (let index = 0; index < 5; index++) await createProduct(t.db, refs, { productName: `Quimbel lamp ${index}` });
    await createProduct(t.db, refs, { productName: 'Quimbal stool' });
    // How common a word is comes from the word counts maintained as listings are written: nothing to refresh.
    // One letter from each: the commoner "quimbel" is meant, though "quimbal" comes first alphabetically.
    const found = names((await search({ q: 'quimbil', limit: 10 })).body.data);
    expect(found).toHaveLength(5);
    for (const name of found) expect(name).toMatch(/^Quimbel lamp/);
    expect(names((await search({ q: 'quimbal' })).body.data)).toEqual(['Quimbal stool']);
  });

  it('finds nothing for a word that resembles nothing in the catalogue', async () => {
    const { refs } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Walnut sideboard' });
    const { status, body } = await search({ q: 'walnut qxzvjk' });
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.nextCursor).toBeNull();
  });
});

describe('GET /api/products: filters', () => {
  it('filters by category, condition (one or several), price, location, verified seller and stock', async () => {
    const { refs, category } = await catalogue();
    const verified = await createUser(t.db, { role: 'seller', verified: true, password: null });
    await createProduct(t.db, refs, { productName: 'A', condition: 'Excellent', resalePrice: '100.00', location: 'Gulshan, Dhaka' });
    await createProduct(t.db, refs, { productName: 'B', condition: 'Good', resalePrice: '200.00', location: 'Chattogram' });
    await createProduct(t.db, { ...refs, sellerId: verified.id }, { productName: 'C', condition: 'Fair', resalePrice: '300.00', location: 'Dhanmondi, Dhaka' });
    await createProduct(t.db, refs, { productName: 'D', condition: 'Good', resalePrice: '400.00', inStock: 'sold', location: 'Sylhet' });
    const within = { categoryId: category.id, sort: 'price-asc' };

    expect(names((await search(within)).body.data)).toEqual(['A', 'B', 'C']);
    expect(names((await search({ ...within, inStock: false })).body.data)).toEqual(['A', 'B', 'C', 'D']);
    expect(names((await search({ ...within, condition: 'Good' })).body.data)).toEqual(['B']);
    expect(names((await search({ ...within, condition: ['Good', 'Fair'] })).body.data)).toEqual(['B', 'C']);
    expect(names((await search({ ...within, minPrice: 150, maxPrice: 300 })).body.data)).toEqual(['B', 'C']);
    expect(names((await search({ ...within, minPrice: 200, maxPrice: 200 })).body.data)).toEqual(['B']);
    expect(names((await search({ ...within, location: 'dhaka' })).body.data)).toEqual(['A', 'C']);
    expect(names((await search({ ...within, location: 'Chatogram' })).body.data)).toEqual(['B']);
    expect(names((await search({ ...within, sellerVerified: true })).body.data)).toEqual(['C']);
    expect(names((await search({ ...within, sellerVerified: false })).body.data)).toEqual(['A', 'B', 'C']);
    // Combined: every filter narrows the others.
    expect(names((await search({ ...within, condition: ['Excellent', 'Fair'], maxPrice: 250, location: 'Dhaka' })).body.data)).toEqual(['A']);
    expect(names((await search({ ...within, inStock: false, condition: 'Good', minPrice: 300 })).body.data)).toEqual(['D']);
  });

  it('matches a location loosely when it names more places than are looked up one by one', async () => {
    const { refs, category } = await catalogue();
    await createProduct(t.db, refs, { productName: 'In Narnia', location: 'Cair Paravel, Narnia' });
    await createProduct(t.db, refs, { productName: 'Elsewhere', location: 'Archenland' });
    // More places named like it than a search resolves to: the products' own trigram match serves it.
    await t.db.execute(sql`insert into search_places (place) select 'narnia quarter ' || i from generate_series(1, 250) as i`);
    expect(names((await search({ categoryId: category.id, location: 'narnia' })).body.data)).toEqual(['In Narnia']);
    expect(names((await search({ categoryId: category.id, location: 'Narnnia' })).body.data)).toEqual(['In Narnia']);
  });

  it('treats blank parameters as absent', async () => {
    const { refs, category } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Only one' });
    const { status, body } = await search({ categoryId: category.id, q: '', minPrice: '', location: '', condition: '' });
    expect(status).toBe(200);
    expect(names(body.data)).toEqual(['Only one']);
  });

  it('sorts newest first by default, by price either way, and by relevance with words', async () => {
    const { refs, category } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Old cheap', resalePrice: '10.00', postedAt: new Date('2025-01-01T00:00:00Z') });
    await createProduct(t.db, refs, { productName: 'New dear', resalePrice: '90.00', postedAt: new Date('2025-03-01T00:00:00Z') });
    await createProduct(t.db, refs, { productName: 'Mid', resalePrice: '50.00', postedAt: new Date('2025-02-01T00:00:00Z') });
    expect(names((await search({ categoryId: category.id })).body.data)).toEqual(['New dear', 'Mid', 'Old cheap']);
    expect(names((await search({ categoryId: category.id, sort: 'price-asc' })).body.data)).toEqual(['Old cheap', 'Mid', 'New dear']);
    expect(names((await search({ categoryId: category.id, sort: 'price-desc' })).body.data)).toEqual(['New dear', 'Mid', 'Old cheap']);
    expect(names((await search({ categoryId: category.id, q: 'cheap', sort: 'newest' })).body.data)).toEqual(['Old cheap']);
  });
});

describe('GET /api/products: will it fit?', () => {
  it('keeps listings that stand in the space, turned about the vertical if need be, and leaves out unmeasured ones', async () => {
    const { refs, category } = await catalogue();
    await createProduct(t.db, refs, { productName: 'Wide', measurements: { widthCm: 200, depthCm: 90, heightCm: 80 } });
    await createProduct(t.db, refs, { productName: 'Tall', measurements: { widthCm: 60, depthCm: 50, heightCm: 210 } });
    await createProduct(t.db, refs, { productName: 'Unmeasured' });
    const fits = async (space: Record<string, number>) =>
      names((await search({ categoryId: category.id, sort: 'price-asc', ...space })).body.data).sort();

    expect(await fits({ spaceWidth: 95, spaceDepth: 210, spaceHeight: 100 })).toEqual(['Wide']);
    expect(await fits({ spaceWidth: 210, spaceDepth: 95 })).toEqual(['Tall', 'Wide']);
    expect(await fits({ spaceHeight: 200 })).toEqual(['Wide']);
    expect(await fits({ spaceWidth: 70 })).toEqual(['Tall']);
    expect(await fits({ spaceWidth: 200, spaceDepth: 89.9 })).toEqual(['Tall']);
  });

  it('keeps listings that pass the doorway straight or tilted, as the geometry says', async () => {
    const { refs, category } = await catalogue();
    // A thin, wide panel: 250 × 5 × 120 cm. Its small face (120 × 5) passes an 80 × 200 door straight.
    await createProduct(t.db, refs, { productName: 'Panel', measurements: { widthCm: 250, depthCm: 5, heightCm: 120 } });
    // A mattress 140 × 200 × 25 passes an 80 × 200 door on its edge, but no door narrower than it is thick.
    await createProduct(t.db, refs, { productName: 'Mattress', measurements: { widthCm: 140, depthCm: 200, heightCm: 25 } });
    // A 210 × 5 × 300 board: its 210 × 5 face passes an 80 × 200 door only tilted across it.
    await createProduct(t.db, refs, { productName: 'Board', measurements: { widthCm: 210, depthCm: 5, heightCm: 300 } });
    // A cube of 90 cm passes no door narrower than 90 cm.
    await createProduct(t.db, refs, { productName: 'Cube', measurements: { widthCm: 90, depthCm: 90, heightCm: 90 } });
    await createProduct(t.db, refs, { productName: 'Unmeasured' });
    const through = async (doorWidth: number, doorHeight: number) =>
      names((await search({ categoryId: category.id, doorWidth, doorHeight })).body.data).sort();

    expect(await through(80, 200)).toEqual(['Board', 'Mattress', 'Panel']);
    expect(await through(200, 80)).toEqual(['Board', 'Mattress', 'Panel']);
    expect(await through(150, 200)).toEqual(['Board', 'Cube', 'Mattress', 'Panel']);
    expect(await through(20, 300)).toEqual(['Board', 'Panel']);
    // The board's 210 × 5 face needs the opening's diagonal: 100 × 120 is too small for it even tilted.
    expect(await through(100, 120)).toEqual(['Cube', 'Panel']);
    expect(await through(4, 300)).toEqual([]);
  });

  it('agrees with the geometry for many random listings and openings', async () => {
    const { refs, category } = await catalogue();
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const size = () => Math.round(10 + random() * 240);
    const listings = Array.from({ length: 60 }, (_, index) => ({
      name: `Piece ${index}`,
      measurements: { widthCm: size(), depthCm: size(), heightCm: size() },
    }));
    for (const listing of listings) await createProduct(t.db, refs, { productName: listing.name, measurements: listing.measurements });
    for (let trial = 0; trial < 6; trial++) {
      const door = { widthCm: 40 + Math.round(random() * 100), heightCm: 150 + Math.round(random() * 80) };
      const space = { widthCm: size(), depthCm: size(), heightCm: size() };
      const viaApi = names(await searchAll({ categoryId: category.id, doorWidth: door.widthCm, doorHeight: door.heightCm, spaceWidth: space.widthCm, spaceDepth: space.depthCm, spaceHeight: space.heightCm }, 100));
      const expected = listings.filter((listing) => fitsThroughDoorway(listing.measurements, door) && fitsInSpace(listing.measurements, space)).map((listing) => listing.name);
      expect(viaApi.sort()).toEqual(expected.sort());
    }
  });
});

describe('GET /api/products: keyset pages', () => {
  it('pages through every sort, neither skipping nor repeating while rows are added', async () => {
    const { refs, category } = await catalogue();
    const postedAt = new Date('2025-05-05T05:05:05.123Z');
    // Equal prices and equal posting times: the id breaks ties.
    for (let index = 0; index < 9; index++) {
      await createProduct(t.db, refs, { productName: `Oak stool ${index}`, resalePrice: index % 2 ? '40.00' : '60.00', postedAt });
    }
    for (const sort of ['newest', 'price-asc', 'price-desc', 'relevance'] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const query: Record<string, string | number> = { categoryId: category.id, q: 'oak stool', sort, limit: 2 };
        const { status, body } = await search(cursor ? { ...query, cursor } : query);
        expect(status).toBe(200);
        seen.push(...body.data.map((product) => product._id));
        cursor = body.nextCursor;
        // Listings added while paging: the newest sort shows them only to a new search; others may show them later, once.
        await createProduct(t.db, refs, { productName: `Other ${sort} ${page++}`, resalePrice: '50.00' });
      } while (cursor);
      expect(seen).toHaveLength(9);
      expect(new Set(seen).size).toBe(9);
    }
  });

  it(`pages by relevance past the ${RANKED_BY_NAME} ranked listings, neither skipping nor repeating while named listings are added`, async () => {
    const { refs, category } = await catalogue();
    const originals: string[] = [];
    for (let index = 0; index < RANKED_BY_NAME + 6; index++) {
      // Names of several lengths, so ranks differ; posting times differ from the rank order.
      const filler = ' with brass handles'.repeat(index % 3);
      const product = await createProduct(t.db, refs, { productName: `Yew bureau ${index}${filler}`, postedAt: new Date(Date.UTC(2024, 0, 1, 0, index)) });
      originals.push(product.id);
    }
    for (let index = 0; index < 3; index++) {
      const product = await createProduct(t.db, refs, { productName: `Writing desk ${index}`, description: 'A yew bureau top', postedAt: new Date(Date.UTC(2024, 5, 1, 0, index)) });
      originals.push(product.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const query: Record<string, string | number> = { categoryId: category.id, q: 'yew bureau', limit: 7 };
      const { status, body } = await search(cursor ? { ...query, cursor } : query);
      expect(status).toBe(200);
      seen.push(...body.data.map((product) => product._id));
      cursor = body.nextCursor;
      // Newer named listings join the ranked tier while paging: each is shown once at most.
      await createProduct(t.db, refs, { productName: `Yew bureau added ${page++}` });
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => originals.includes(id)).sort()).toEqual([...originals].sort());
    // The listings that only mention the words come last.
    expect(seen.slice(-3).sort()).toEqual(originals.slice(-3).sort());
  });

  it('keeps paging stable for rows inserted in the middle of the order', async () => {
    const { refs, category } = await catalogue();
    for (const price of ['10.00', '20.00', '30.00', '40.00', '50.00', '60.00']) {
      await createProduct(t.db, refs, { productName: `P${price}`, resalePrice: price });
    }
    const first = await search({ categoryId: category.id, sort: 'price-asc', limit: 3 });
    expect(names(first.body.data)).toEqual(['P10.00', 'P20.00', 'P30.00']);
    await createProduct(t.db, refs, { productName: 'P15.00', resalePrice: '15.00' });
    await createProduct(t.db, refs, { productName: 'P45.00', resalePrice: '45.00' });
    const second = await search({ categoryId: category.id, sort: 'price-asc', limit: 3, cursor: first.body.nextCursor! });
    expect(names(second.body.data)).toEqual(['P40.00', 'P45.00', 'P50.00']);
  });

  it('counts facets that match the results, each ignoring its own filter, on the first page only', async () => {
    const { refs, category } = await catalogue();
    const other = await createCategory(t.db);
    for (const [condition, count] of [['Excellent', 2], ['Good', 3], ['Fair', 1]] as const) {
      for (let index = 0; index < count; index++) await createProduct(t.db, refs, { productName: `Zebrawood ${condition}`, condition });
    }
    await createProduct(t.db, { ...refs, categoryId: other.id }, { productName: 'Zebrawood elsewhere', condition: 'Good' });
    await createProduct(t.db, refs, { productName: 'Zebrawood sold', condition: 'Good', inStock: 'sold' });

    const { body } = await search({ q: 'zebrawood', categoryId: category.id, condition: 'Good', limit: 2 });
    expect(body.facets).toEqual({
      condition: { Excellent: 2, Good: 3, Fair: 1 },
      category: { [category.id]: 3, [other.id]: 1 },
      exact: true,
      estimated: false,
    });
    const paged = await searchAll({ q: 'zebrawood', categoryId: category.id, condition: 'Good' });
    expect(paged).toHaveLength(body.facets!.condition.Good!);
    for (const condition of conditions) {
      expect(await searchAll({ q: 'zebrawood', categoryId: category.id, condition })).toHaveLength(body.facets!.condition[condition]!);
    }
    const next = await search({ q: 'zebrawood', categoryId: category.id, condition: 'Good', limit: 2, cursor: body.nextCursor! });
    expect(next.body.facets).toBeNull();
  });
});

describe('GET /api/products: bad parameters', () => {
  it.each([
    [{ minPrice: 50, maxPrice: 10 }, 'minPrice'],
    [{ minPrice: -1 }, 'minPrice'],
    [{ maxPrice: 'cheap' }, 'maxPrice'],
    [{ maxPrice: '0x10' }, 'maxPrice'],
    [{ maxPrice: '1e3' }, 'maxPrice'],
    [{ minPrice: '10.005' }, 'minPrice'],
    [{ spaceWidth: '0x40' }, 'spaceWidth'],
    [{ spaceWidth: -20 }, 'spaceWidth'],
    [{ spaceDepth: 0 }, 'spaceDepth'],
    [{ spaceHeight: 'tall' }, 'spaceHeight'],
    [{ doorWidth: 80 }, 'doorHeight'],
    [{ doorHeight: -200, doorWidth: 80 }, 'doorHeight'],
    [{ condition: 'Mint' }, 'condition'],
    [{ condition: ['Good', 'Broken'] }, 'condition'],
    [{ categoryId: 'sofas' }, 'categoryId'],
    [{ sort: 'cheapest' }, 'sort'],
    [{ sort: 'relevance' }, 'sort'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ sellerVerified: 'yes' }, 'sellerVerified'],
    [{ inStock: 'maybe' }, 'inStock'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ cursor: Buffer.from(JSON.stringify({ s: 'newest', k: "'; drop table products; --", i: 'x', f: 'y' })).toString('base64url') }, 'cursor'],
    [{ cursor: Buffer.from(JSON.stringify({ s: 'newest', k: '2025-01-01 00:00:00+00', i: '00000000-0000-4000-8000-000000000000', f: 'y', r: 'x' })).toString('base64url') }, 'cursor'],
    [{ cursor: Buffer.from(JSON.stringify({ s: 'newest', k: '2025-01-01 00:00:00+00', i: '00000000-0000-4000-8000-000000000000', f: searchFingerprint({ sort: 'newest' }), g: 'yes' })).toString('base64url') }, 'cursor'],
    [{ q: 'oak', cursor: Buffer.from(JSON.stringify({ s: 'relevance', k: '2|2025-01-01 00:00:00+00', i: '00000000-0000-4000-8000-000000000000', f: searchFingerprint({ q: 'oak', sort: 'relevance' }) })).toString('base64url') }, 'cursor'],
    [{ cursor: forgedCursor('newest', '2025-02-30 00:00:00+00') }, 'cursor'],
    [{ cursor: forgedCursor('newest', '2025-01-01 25:00:00+00') }, 'cursor'],
    [{ cursor: forgedCursor('newest', '0000-01-01 00:00:00+00') }, 'cursor'],
    [{ q: 'oak', cursor: forgedCursor('relevance', '1|1e-99999|2025-01-01 00:00:00+00', { q: 'oak' }) }, 'cursor'],
    [{ q: 'oak', cursor: forgedCursor('relevance', '1|99999999999999999999999999999999999999999|2025-01-01 00:00:00+00', { q: 'oak' }) }, 'cursor'],
    [{ q: 'oak', cursor: forgedCursor('relevance', '1|0.5|2025-01-01 00:00:00+00', { q: 'oak' }, '2025-13-01 00:00:00+00|00000000-0000-4000-8000-000000000000') }, 'cursor'],
  ])('%j answers 400 naming %s', async (query, parameter) => {
    const { status, body } = await search(query as Record<string, string | number | string[]>);
    expect(status).toBe(400);
    expect(body.message!.startsWith(parameter)).toBe(true);
  });

  it('refuses a cursor used with another search or sort, and a forged well-formed one is only a position', async () => {
    const { refs, category } = await catalogue();
    for (let index = 0; index < 3; index++) await createProduct(t.db, refs, { productName: `Item ${index}`, resalePrice: `${10 + index}.00` });
    const first = await search({ categoryId: category.id, sort: 'price-asc', limit: 1 });
    const cursor = first.body.nextCursor!;
    expect((await search({ categoryId: category.id, sort: 'price-desc', limit: 1, cursor })).status).toBe(400);
    const otherSearch = await search({ categoryId: category.id, sort: 'price-asc', maxPrice: 100, limit: 1, cursor });
    expect(otherSearch.status).toBe(400);
    expect(otherSearch.body.message).toMatch(/^cursor/);
    // The same search with another page size continues where it was.
    expect(names((await search({ categoryId: category.id, sort: 'price-asc', limit: 5, cursor })).body.data)).toEqual(['Item 1', 'Item 2']);
  });
});
