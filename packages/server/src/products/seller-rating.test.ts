import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createReview, createUser, createWish } from '../demo/factories.ts';

const t = setupTestApp();

/** A seller rated 5 and 4 by two buyers, with two advertised pieces in one category, and a buyer who wished for one. */
async function ratedSeller() {
  const seller = await createUser(t.db, { role: 'seller' });
  const category = await createCategory(t.db);
  const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true, resalePrice: '100.00' });
  const sibling = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true, resalePrice: '110.00' });
  await createReview(t.db, product, (await createUser(t.db)).id, 5);
  await createReview(t.db, product, (await createUser(t.db)).id, 4);
  const buyer = await createUser(t.db);
  await createWish(t.db, { buyerId: buyer.id, productId: product.id });
  return { seller, category, product, sibling, buyer };
}

const get = async (url: string, headers: Record<string, string> = {}) => {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

type Card = { _id: string; productId?: string; sellerRating: unknown };
const cardOf = (cards: Card[], productId: string) => cards.find((card) => (card.productId ?? card._id) === productId)?.sellerRating;

describe('the seller’s rating on product cards', () => {
  it('travels with every answer that carries product cards, read from the reviews', async () => {
    const { seller, category, product, sibling, buyer } = await ratedSeller();
    const rating = { average: 4.5, count: 2 };
    const buyerHeaders = await bearer(t.app, buyer.id);
    const sellerHeaders = await bearer(t.app, seller.id);

    expect(cardOf((await get('/api/advertisement?limit=100')).data, product.id)).toEqual(rating);
    expect(cardOf((await get(`/api/products?categoryId=${category.id}`)).data, product.id)).toEqual(rating);
    expect(cardOf((await get(`/api/category/${category.id}`, buyerHeaders)).products, product.id)).toEqual(rating);
    const page = (await get(`/api/products/${product.id}`)).data;
    expect(page.sellerRating).toEqual(rating);
    expect(page.seller).toMatchObject({ rating: 4.5, reviewCount: 2 });
    expect(cardOf(page.similar, sibling.id)).toEqual(rating);
    expect(cardOf((await get(`/api/sellers/${seller.id}`)).data.listings, product.id)).toEqual(rating);
    expect(cardOf((await get(`/api/wishes?email=${buyer.email}`, buyerHeaders)).data, product.id)).toEqual(rating);
    expect(cardOf((await get(`/api/myProducts?email=${seller.email}`, sellerHeaders)).data, product.id)).toEqual(rating);
  });

  it('is null for a seller nobody has reviewed yet, and rounds the average to one decimal', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    expect((await get(`/api/products/${product.id}`)).data.sellerRating).toBeNull();

    for (const stars of [5, 5, 4]) await createReview(t.db, product, (await createUser(t.db)).id, stars);
    expect((await get(`/api/products/${product.id}`)).data.sellerRating).toEqual({ average: 4.7, count: 3 });
  });
});
