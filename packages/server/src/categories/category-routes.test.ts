import { describe, expect, it } from 'vitest';
import { capabilityTexts, LIST_MAX_LIMIT } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';

const t = setupTestApp();

const categoryKeys = ['_id', 'categoryName', 'description', 'image'].sort();

describe('GET /api/ and GET /api/allCategories', () => {
  it('answer the same plain array of categories, alphabetical, with the category fields only', async () => {
    await createCategory(t.db, { categoryName: 'zz Garden' });
    await createCategory(t.db, { categoryName: 'AA Attic' });
    for (const url of ['/api/', '/api/allCategories']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      const list = response.json() as { categoryName: string }[];
      expect(Array.isArray(list)).toBe(true);
      for (const item of list) expect(Object.keys(item).sort()).toEqual(categoryKeys);
      const names = list.map((c) => c.categoryName);
      expect(names.indexOf('AA Attic')).toBeLessThan(names.indexOf('zz Garden'));
      expect([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))).toEqual(names);
    }
  });

  it('pages with page and limit, keeping the array shape, and links to the next page', async () => {
    for (let i = 0; i < 3; i++) await createCategory(t.db);
    const all = (await t.app.inject({ method: 'GET', url: `/api/allCategories?limit=${LIST_MAX_LIMIT}` })).json() as { _id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(3);

    const first = await t.app.inject({ method: 'GET', url: '/api/allCategories?limit=2' });
    expect(first.json().map((c: { _id: string }) => c._id)).toEqual(all.slice(0, 2).map((c) => c._id));
    expect(first.headers.link).toBe('</api/allCategories?limit=2&page=2>; rel="next"');

    const second = await t.app.inject({ method: 'GET', url: '/api/allCategories?page=2&limit=2' });
    expect(second.json().map((c: { _id: string }) => c._id)).toEqual(all.slice(2, 4).map((c) => c._id));

    const last = await t.app.inject({ method: 'GET', url: `/api/allCategories?limit=${LIST_MAX_LIMIT}` });
    expect(last.headers.link).toBeUndefined();
  });

  it.each([
    ['limit=0', 'limit must be 1 or more'],
    [`limit=${LIST_MAX_LIMIT + 1}`, `limit must be at most ${LIST_MAX_LIMIT}`],
    ['page=0', 'page must be 1 or more'],
    ['page=abc', 'page'],
  ])('refuses %s with 400 naming the field', async (query, expected) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/allCategories?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().message).toContain(expected);
  });
});

describe('GET /api/category/:id', () => {
  it('needs a signed-in caller', async () => {
    const category = await createCategory(t.db);
    const response = await t.app.inject({ method: 'GET', url: `/api/category/${category.id}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it('answers {success, products}: the category’s available products newest first, then the sold ones', async () => {
    const category = await createCategory(t.db);
    const other = await createCategory(t.db);
    const seller = await createUser(t.db, { role: 'seller', name: 'Karim Seller', verified: true, password: null });
    const buyer = await createUser(t.db, { password: null });
    const older = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { postedAt: new Date('2025-01-01T10:00:00Z') });
    const newer = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { postedAt: new Date('2025-02-01T10:00:00Z') });
    const sold = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { inStock: 'sold' });
    await createProduct(t.db, { categoryId: other.id, sellerId: seller.id });

    const response = await t.app.inject({ method: 'GET', url: `/api/category/${category.id}`, headers: await bearer(t.app, buyer.id) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['products', 'success']);
    expect(body.products.map((p: { _id: string }) => p._id)).toEqual([newer.id, older.id, sold.id]);
    expect(body.products[2].inStock).toBe('sold');
    expect(body.products[0]).toMatchObject({
      categoryId: category.id,
      categoryName: category.categoryName,
      sellerName: 'Karim Seller',
      sellerEmail: '',
      sellerVerified: true,
      inStock: 'available',
      resalePrice: 150,
      originalPrice: 300,
    });
  });

  it('answers 404 for an unknown category and 400 for a malformed id', async () => {
    const buyer = await createUser(t.db, { password: null });
    const headers = await bearer(t.app, buyer.id);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/category/00000000-0000-4000-8000-000000000000', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No category with this id' });

    const malformed = await t.app.inject({ method: 'GET', url: '/api/category/not-an-id', headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ field: 'id', message: 'must be a valid id' }]);
  });
});

describe('POST /api/addCategory', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    categoryName: `Kitchen ${Math.random().toString(36).slice(2)}`,
    description: 'Cabinets and stools',
    image: 'https://images.example.com/kitchen.webp',
    ...overrides,
  });

  it('lets an admin add a category, which then shows in the list', async () => {
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const payload = body();
    const response = await t.app.inject({ method: 'POST', url: '/api/addCategory', headers: await bearer(t.app, admin.id), payload });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      success: true,
      message: expect.stringContaining(payload.categoryName),
      data: { _id: expect.any(String), categoryName: payload.categoryName, description: payload.description, image: payload.image },
    });
    const list = (await t.app.inject({ method: 'GET', url: `/api/allCategories?limit=${LIST_MAX_LIMIT}` })).json();
    expect(list).toContainEqual(response.json().data);
  });

  it('refuses a second category of the same name in any letter case with 409', async () => {
    const admin = await createUser(t.db, { role: 'admin', password: null });
    await createCategory(t.db, { categoryName: 'Outdoor' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addCategory',
      headers: await bearer(t.app, admin.id),
      payload: body({ categoryName: 'OUTDOOR' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('A category named OUTDOOR already exists');
  });

  it.each([
    [{ categoryName: undefined }, 'categoryName is required'],
    [{ description: '' }, 'description is required'],
    [{ image: undefined }, 'image is required'],
    [{ image: 'javascript:alert(1)' }, 'image must be an http(s) URL'],
    [{ image: 'ftp://images.example.com/a.png' }, 'image must be an http(s) URL'],
  ])('refuses %o with 400 and the rule it broke', async (override, expected) => {
    const admin = await createUser(t.db, { role: 'admin', password: null });
    const response = await t.app.inject({ method: 'POST', url: '/api/addCategory', headers: await bearer(t.app, admin.id), payload: body(override) });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { message: string }) => e.message)).toContain(expected);
  });

  it('answers 401 without a token and 403 to a seller, who is no admin', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/addCategory', payload: body() });
    expect(anonymous.statusCode).toBe(401);
    const wrongRole = await t.app.inject({ method: 'POST', url: '/api/addCategory', headers: await bearer(t.app, seller.id), payload: body() });
    expect(wrongRole.statusCode).toBe(403);
    expect(wrongRole.json()).toEqual({ success: false, message: capabilityTexts.onlyFor(['admin']) });
  });
});
