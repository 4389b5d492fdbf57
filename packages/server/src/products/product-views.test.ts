import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../db/factories.ts';
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

  it('counts every opening over HTTP, where kept public answers may skip the app', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (let opening = 0; opening < 4; opening++) expect((await fetch(`${base}/api/products/${product.id}`)).status).toBe(200);
    await t.app.productViews.flush();
    expect(await viewsOf(product.id)).toBe(4);
  });
});
