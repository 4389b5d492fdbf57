import zlib from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { deleteUserWithDependents, verifyUser } from '../admin/admin-repository.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { createCategory, createProduct, createReview, createUser } from '../demo/factories.ts';
import { products, reviews } from '../db/schema/index.ts';

const t = setupTestApp();

/** A second app server on the same database, with its own pool, listener and cache. */
let second: App;
let closeSecondPool: () => Promise<void>;
beforeAll(async () => {
  const { db, pool } = createDatabase(t.database.url, 3);
  second = await buildApp({ config: t.config, db, jobs: { recurring: false } });
  await second.ready();
  closeSecondPool = () => pool.end();
});
afterAll(async () => {
  await second?.close();
  await closeSecondPool?.();
});

const read = async (app: App, url: string, headers: Record<string, string> = {}) => {
  const response = await app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response;
};
const advertisedNames = async (app: App) =>
  (await read(app, '/api/advertisement')).json<{ data: Array<{ productName: string; sellerVerified: boolean }> }>().data;

/**
 * Changes rows without announcing it, as no code of the product can: a cached answer that shows
 * the old value was answered from the cache.
 */
async function renameSilently(productId: string, productName: string) {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.update(products).set({ productName }).where(eq(products.id, productId));
  });
}

describe('the response cache', () => {
  it('answers a hot read again from memory until a write to a table it read is committed', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: 'Oak desk' });
    const url = `/api/products/${product.id}`;

    expect((await read(t.app, url)).json().data.productName).toBe('Oak desk');
    await renameSilently(product.id, 'Renamed unannounced');
    expect((await read(t.app, url)).json().data.productName).toBe('Oak desk');

    await t.db.update(products).set({ resalePrice: '99.00' }).where(eq(products.id, product.id));
    const fresh = (await read(t.app, url)).json().data;
    expect(fresh).toMatchObject({ productName: 'Renamed unannounced', resalePrice: 99 });
  });

  it('computes a stale answer once for the requests that ask for it together, and gives it to each', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { resalePrice: '40.00' });
    const url = `/api/products/${product.id}`;
    const priceOf = (answer: Awaited<ReturnType<typeof read>>) =>
      JSON.parse(answer.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(answer.rawPayload).toString() : answer.body).data.resalePrice;
    const statements = vi.spyOn(t.database.pool, 'query');
    // The statements that read this product's page: its own, its seller's, the similar pieces'. Not
    // the views counted meanwhile, which every app server writes every two seconds.
    const readingIt = () =>
      statements.mock.calls.filter((call) => {
        const statement = JSON.stringify(call);
        return !statement.includes('insert into product_views') && [product.id, seller.id, category.id].some((id) => statement.includes(id));
      }).length;
    try {
      await t.db.update(products).set({ resalePrice: '45.00' }).where(eq(products.id, product.id));
      statements.mockClear();
      expect(priceOf(await read(t.app, url))).toBe(45);
      const once = readingIt();
      expect(once).toBeGreaterThan(0);

      await t.db.update(products).set({ resalePrice: '50.00' }).where(eq(products.id, product.id));
      statements.mockClear();
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => read(t.app, url, index % 2 ? { 'accept-encoding': 'gzip' } : {})));
      expect(answers.map(priceOf)).toEqual(Array(8).fill(50));
      // The views of these reads written now, as the timer may do at any moment of the test.
      await t.app.productViews.flush();
      expect(readingIt()).toBe(once);
    } finally {
      statements.mockRestore();
    }
  });

  it('leaves the requests waiting for an answer that is not kept to make their own', async () => {
    const url = `/api/products/${crypto.randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.app.inject({ method: 'GET', url })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404]);
  });

  it('keeps each answer’s own headers, and leaves the request’s own (CORS) to the request', async () => {
    const category = await createCategory(t.db, { categoryName: `Lamps ${Date.now()}` });
    const first = await read(t.app, '/api/allCategories?limit=1', { origin: t.config.corsOrigin });
    const again = await read(t.app, '/api/allCategories?limit=1');
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers.link).toBe(first.headers.link);
    expect(first.headers['access-control-allow-origin']).toBe(t.config.corsOrigin);
    expect(again.headers['access-control-allow-origin']).toBeUndefined();
    expect(category.id).toBeTruthy();
  });

  it('still checks access before sending a kept answer of a signed-in read', async () => {
    const buyer = await createUser(t.db);
    const category = await createCategory(t.db);
    const url = `/api/category/${category.id}`;
    await read(t.app, url, await bearer(t.app, buyer.id));
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('shows a change made through one app server on the very next read of another', async () => {
    const seller = await createUser(t.db, { role: 'seller', name: 'Nadia' });
    const category = await createCategory(t.db);
    expect(await advertisedNames(second)).toEqual([]);

    // A new advertised product.
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: 'Teak bench', advertisement: true });
    expect(await advertisedNames(second)).toMatchObject([{ productName: 'Teak bench', sellerVerified: false }]);

    // A verified seller.
    await verifyUser(t.db, seller.id);
    expect(await advertisedNames(second)).toMatchObject([{ productName: 'Teak bench', sellerVerified: true }]);

    // A sale.
    await t.db.update(products).set({ state: 'sold', inStock: 'sold' }).where(eq(products.id, product.id));
    expect(await advertisedNames(second)).toEqual([]);

    // A deleted user takes their listings along.
    const other = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: 'Pine shelf', advertisement: true });
    expect(await advertisedNames(second)).toMatchObject([{ productName: 'Pine shelf' }]);
    await deleteUserWithDependents(t.db, seller);
    expect(await advertisedNames(second)).toEqual([]);
    expect((await second.inject({ method: 'GET', url: `/api/products/${other.id}` })).statusCode).toBe(404);
  });

  it('shows a new or changed review in the seller’s rating on every cached card list on the very next read of another server', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const buyer = await createUser(t.db);
    const buyerHeaders = await bearer(t.app, buyer.id);
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true });
    const cards = [
      { url: '/api/advertisement', list: 'data' },
      { url: `/api/products?categoryId=${category.id}`, list: 'data' },
      { url: `/api/category/${category.id}`, list: 'products' },
    ] as const;
    const ratingsOn = async (app: App) => {
      const ratings = [];
      for (const { url, list } of cards) {
        const cardsOfList = (await read(app, url, buyerHeaders)).json()[list] as Array<{ _id: string; sellerRating: unknown }>;
        ratings.push(cardsOfList.find((card) => card._id === product.id)!.sellerRating);
      }
      return ratings;
    };
    // Both servers keep the answers from before the first review.
    expect(await ratingsOn(t.app)).toEqual([null, null, null]);
    expect(await ratingsOn(second)).toEqual([null, null, null]);

    const first = await createReview(t.db, product, buyer.id, 5);
    expect(await ratingsOn(second)).toEqual(Array(3).fill({ average: 5, count: 1 }));
    await createReview(t.db, product, (await createUser(t.db)).id, 4);
    expect(await ratingsOn(second)).toEqual(Array(3).fill({ average: 4.5, count: 2 }));
    // A changed review.
    await t.db.update(reviews).set({ rating: 2 }).where(eq(reviews.id, first.id));
    expect(await ratingsOn(second)).toEqual(Array(3).fill({ average: 3, count: 2 }));
  });

  it('forgets nothing it should when writes and reads interleave on two servers', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const url = `/api/products?categoryId=${category.id}&sort=newest`;
    for (let round = 1; round <= 20; round++) {
      await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
      const [onFirst, onSecond] = await Promise.all([read(t.app, url), read(second, url)]);
      expect(onFirst.json().data).toHaveLength(round);
      expect(onSecond.json().data).toHaveLength(round);
    }
  });

  it('tags kept answers with an ETag and answers 304 to a request that names the current one', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const url = `/api/products/${product.id}`;

    const first = await read(t.app, url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, stale-while-revalidate=30');
    // The same tag from the other server, which computed the answer itself.
    expect((await read(second, url)).headers.etag).toBe(etag);

    for (const app of [t.app, second]) {
      const unchanged = await app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
    }

    await t.db.update(products).set({ resalePrice: '75.00' }).where(eq(products.id, product.id));
    const changed = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data.resalePrice).toBe(75);
  });

  it('answers a HEAD from memory with the headers its GET has, ETag included, and 304 to a request that names it', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: 'Oak desk' });
    const url = `/api/products/${product.id}`;

    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const got = await read(t.app, url);
    expect(head.headers.etag).toBe(got.headers.etag);
    expect(head.headers['content-length']).toBe(String(got.rawPayload.length));

    await renameSilently(product.id, 'A much longer name, unannounced');
    const again = await t.app.inject({ method: 'HEAD', url, headers: { 'if-none-match': got.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'HEAD', url })).headers['content-length']).toBe(String(got.rawPayload.length));
  });

  it('sends brotli, gzip or the bytes as they are, each with its own ETag, the same on every server', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    for (let index = 0; index < 8; index++) await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const url = `/api/products?categoryId=${category.id}`;
    const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync };

    // The first read computes the answer (a miss), the second is sent from memory (a hit).
    const plain = (await read(t.app, url)).rawPayload;
    expect((await read(t.app, url)).rawPayload.equals(plain)).toBe(true);
    expect(plain.length).toBeGreaterThan(1024);
    const tags = new Set<string>();
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const onFirst = await read(t.app, url, { 'accept-encoding': acceptEncoding });
      const onSecond = await read(second, url, { 'accept-encoding': acceptEncoding });
      const again = await read(second, url, { 'accept-encoding': acceptEncoding });
      for (const response of [onFirst, onSecond, again]) {
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        expect(response.headers.etag).toBe(onFirst.headers.etag);
        expect(decode[encoding](response.rawPayload).equals(plain)).toBe(true);
      }
      tags.add(onFirst.headers.etag as string);
    }
    const identity = await read(t.app, url, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.equals(plain)).toBe(true);
    tags.add(identity.headers.etag as string);
    expect(tags.size).toBe(4);

    // Each copy's tag earns a 304 for a request that would get that copy, and only for it.
    for (const [acceptEncoding, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
      const etag = (await read(t.app, url, headers)).headers.etag as string;
      if (encoding) expect(etag).toMatch(new RegExp(`-${encoding}"$`));
      for (const app of [t.app, second]) {
        const unchanged = await app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': etag } });
        expect(unchanged.statusCode).toBe(304);
        expect(unchanged.body).toBe('');
        expect(unchanged.headers.etag).toBe(etag);
      }
      const otherCopy = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding ? 'deflate' : 'br', 'if-none-match': etag } });
      expect(otherCopy.statusCode).toBe(200);
    }
    const inAList = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': `"other", W/${identity.headers.etag}` } });
    expect(inAList.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': '*' } })).statusCode).toBe(304);
  });

  it('sends a public kept answer or its 304 over HTTP again exactly as first sent, and a write through another server on the very next read', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    for (let index = 0; index < 8; index++) await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { productName: 'Walnut chest' });
    const base = await second.listen({ port: 0, host: '127.0.0.1' });
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(base + url, { headers });
      const headersSent = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
      return { status: response.status, headers: headersSent, body: Buffer.from(await response.arrayBuffer()) };
    };

    for (const [url, acceptEncoding] of [
      [`/api/products/${product.id}`, 'identity'],
      [`/api/products?categoryId=${category.id}`, 'gzip'],
      [`/api/products?categoryId=${category.id}`, 'br'],
    ] as const) {
      const first = await get(url, { 'accept-encoding': acceptEncoding });
      for (let again = 0; again < 2; again++) expect(await get(url, { 'accept-encoding': acceptEncoding })).toEqual(first);
      // A request with an Origin still gets its CORS answer; one naming the ETag gets a 304.
      const fromOrigin = await get(url, { 'accept-encoding': acceptEncoding, origin: t.config.corsOrigin });
      expect(fromOrigin.headers['access-control-allow-origin']).toBe(t.config.corsOrigin);
      expect(fromOrigin.body).toEqual(first.body);
      const notModified = await get(url, { 'accept-encoding': acceptEncoding, 'if-none-match': first.headers.etag! });
      expect(notModified.status).toBe(304);
      expect(await get(url, { 'accept-encoding': acceptEncoding, 'if-none-match': first.headers.etag! })).toEqual(notModified);
    }

    const url = `/api/products/${product.id}`;
    await renameSilently(product.id, 'Renamed unannounced');
    expect(JSON.parse((await get(url)).body.toString()).data.productName).toBe('Walnut chest');
    const etag = (await get(url)).headers.etag!;
    expect((await get(url, { 'if-none-match': etag })).status).toBe(304);
    await t.db.update(products).set({ resalePrice: '88.00' }).where(eq(products.id, product.id));
    expect((await get(url, { 'if-none-match': etag })).status).toBe(200);
    expect(JSON.parse((await get(url)).body.toString()).data).toMatchObject({ productName: 'Renamed unannounced', resalePrice: 88 });
  });

  it('leaves an answer under 1 KB uncompressed', async () => {
    const category = await createCategory(t.db);
    const response = await read(t.app, `/api/category/${category.id}`, { ...(await bearer(t.app, (await createUser(t.db)).id)), 'accept-encoding': 'br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ success: true, products: [] });
  });

  it('marks a signed-in read private', async () => {
    const buyer = await createUser(t.db);
    const category = await createCategory(t.db);
    const response = await read(t.app, `/api/category/${category.id}`, await bearer(t.app, buyer.id));
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });
});
