import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { products, productViews } from '../db/schema/index.ts';
import { addProductViews } from './product-views.ts';

const t = setupTestApp();

const viewsOf = async (productId: string) =>
  (await t.db.select().from(productViews).where(eq(productViews.productId, productId)))[0]?.views;

describe('product views', () => {
  it('adds each batch to the count, and skips a product deleted meanwhile', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const [kept, deleted] = await Promise.all([1, 2].map(() => createProduct(t.db, { categoryId: category.id, sellerId: seller.id })));
    await t.db.delete(products).where(eq(products.id, deleted!.id));

    await addProductViews(t.db, new Map([[kept!.id, 3], [deleted!.id, 5]]));
    await addProductViews(t.db, new Map([[kept!.id, 2]]));
    expect(await viewsOf(kept!.id)).toBe(5);
    expect(await viewsOf(deleted!.id)).toBeUndefined();
  });

  it('resolves a flush only once the write under way (the timer’s) is in the database too', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    await addProductViews(t.db, new Map([[product.id, 1]]));
    // Another transaction holds the product's count, so the write of its views waits.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx.select().from(productViews).where(eq(productViews.productId, product.id)).for('update');
      locked();
      await released;
    });
    await isLocked;
    t.app.productViews.count(product.id);
    // As the timer does: the write starts, and waits for the lock.
    const underWay = t.app.productViews.flush();
    const waitingOnLock = sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    while ((await t.db.execute<{ waiting: number }>(waitingOnLock)).rows[0]!.waiting === 0);
    let flushed = false;
    const flush = t.app.productViews.flush().then(() => (flushed = true));
    await t.db.execute(sql`select 1`);
    expect(flushed).toBe(false);
    release();
    await Promise.all([holder, underWay, flush]);
    expect(await viewsOf(product.id)).toBe(2);
  });

  it('counts every opening of a product page, those answered from the response cache too', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    for (let opening = 0; opening < 4; opening++) {
      expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(200);
    }
    await t.app.productViews.flush();
    expect(await viewsOf(product.id)).toBe(4);
  });

  it('counts every opening over HTTP, a 304 too', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const url = `${await listening()}/api/products/${product.id}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    for (let opening = 0; opening < 3; opening++) expect((await fetch(url)).status).toBe(200);
    for (let opening = 0; opening < 2; opening++) {
      expect((await fetch(url, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
    }
    await t.app.productViews.flush();
    expect(await viewsOf(product.id)).toBe(6);
  });

  it('counts no view for a crawler or a HEAD, answered computed or kept', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const url = `${await listening()}/api/products/${product.id}`;
    const crawlers = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Baiduspider+(+http://www.baidu.com/search/spider.htm)',
      'ia_archiver (Web Crawler)',
    ];
    // The first is computed, the rest kept.
    for (const crawler of [...crawlers, ...crawlers]) expect((await fetch(url, { headers: { 'user-agent': crawler } })).status).toBe(200);
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: `/api/products/${product.id}` })).statusCode).toBe(200);
    await t.app.productViews.flush();
    expect(await viewsOf(product.id)).toBeUndefined();

    expect((await fetch(url, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36' } })).status).toBe(200);
    await t.app.productViews.flush();
    expect(await viewsOf(product.id)).toBe(1);
  });
});

let base: string | undefined;
const listening = async () => (base ??= await t.app.listen({ port: 0, host: '127.0.0.1' }));
