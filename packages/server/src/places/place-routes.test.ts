import { describe, expect, it } from 'vitest';
import { PLACE_SUGGESTIONS_LIMIT } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';

const t = setupTestApp();

interface Suggestion {
  _id: string;
  name: string;
  region: string;
  regionName: string | null;
  country: string;
  lat: number;
  lon: number;
}

async function suggest(q: string): Promise<Suggestion[]> {
  const response = await t.app.inject({ method: 'GET', url: `/api/places?q=${encodeURIComponent(q)}` });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: Suggestion[] }).data;
}

describe('GET /api/places', () => {
  it('suggests towns starting with the text, best known first, with their point', async () => {
    const found = await suggest('dhak');
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(PLACE_SUGGESTIONS_LIMIT);
    expect(found[0]).toEqual({ _id: '1185241', name: 'Dhaka', region: '81', regionName: null, country: 'BD', lat: 23.7104, lon: 90.40744 });
    const paris = await suggest('Paris');
    expect(paris.length).toBe(PLACE_SUGGESTIONS_LIMIT);
    expect(paris[0]).toMatchObject({ name: 'Paris', country: 'FR' });
    expect(paris.every((town) => town.name.toLowerCase().startsWith('paris'))).toBe(true);
  });

  it('forgives a typo and ignores accents and case', async () => {
    expect((await suggest('Dhakka'))[0]).toMatchObject({ name: 'Dhaka', country: 'BD' });
    expect((await suggest('zurich'))[0]).toMatchObject({ name: 'Zürich', country: 'CH' });
    expect((await suggest('SAO PAULO'))[0]).toMatchObject({ name: 'São Paulo', country: 'BR' });
  });

  it('answers an empty list when nothing is close, and takes % and _ as letters', async () => {
    expect(await suggest('qxzqxzqxz')).toEqual([]);
    expect(await suggest('%')).toEqual([]);
    expect(await suggest('_')).toEqual([]);
  });

  it('answers 400 naming q when it is missing, blank or too long', async () => {
    for (const url of ['/api/places', '/api/places?q=', '/api/places?q=%20%20', `/api/places?q=${'a'.repeat(101)}`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/\bq\b/);
    }
  });
});

describe('listings and places', () => {
  it('a listing written with a town in its location gets that town’s point, rounded to about 1 km', async () => {
    const category = await createCategory(t.db);
    const seller = await createUser(t.db, { role: 'seller' });
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { location: 'Gulshan, Dhaka' });
    expect(product).toMatchObject({ placeId: 1185241, lat: 23.71, lon: 90.41 });
    const unknown = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { location: 'Qxzqxz' });
    expect(unknown).toMatchObject({ placeId: null, lat: null, lon: null });
  });
});
