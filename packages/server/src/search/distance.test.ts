import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEAR_DEFAULT_RADIUS_KM, type Condition, type Product } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { products } from '../db/schema/index.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { eq } from 'drizzle-orm';

const t = setupTestApp();

/** Dhaka's point in the gazetteer. */
const DHAKA = { lat: 23.7104, lon: 90.40744 };

/** The great-circle distance on earthdistance's sphere, written out independently of the code under test. */
function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * r) / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2;
  return 2 * 6378.168 * Math.asin(Math.sqrt(h));
}

interface Listing {
  id: string;
  name: string;
  condition: Condition;
  price: number;
  categoryId: string;
  point: { lat: number; lon: number } | null;
}

const listings: Listing[] = [];
const names = ['Oak table', 'Leather sofa', 'Pine shelf'];
const conditionsCycle: Condition[] = ['Excellent', 'Good', 'Fair'];
let categories: string[] = [];

beforeAll(async () => {
  const seller = await createUser(t.db, { role: 'seller' });
  categories = [(await createCategory(t.db)).id, (await createCategory(t.db)).id];
  // Towns within 600 km of Dhaka, the same town for several listings now and then (equal distances).
  const towns = (
    await t.db.execute<{ id: number }>(
      sql`select id from places where earth_box(ll_to_earth(${DHAKA.lat}, ${DHAKA.lon}), 600000) @> ll_to_earth(lat, lon) order by id limit 180`,
    )
  ).rows;
  for (let i = 0; i < 240; i++) {
    const name = names[i % 3]!;
    const condition = conditionsCycle[Math.floor(i / 3) % 3]!;
    const price = 50 + ((i * 37) % 400);
    const categoryId = categories[i % 2]!;
    const created = await createProduct(t.db, { categoryId, sellerId: seller.id }, { productName: name, condition, resalePrice: `${price}.00`, location: 'Anywhere' });
    const [placed] = await t.db.update(products).set({ placeId: towns[i % towns.length]!.id }).where(eq(products.id, created.id)).returning();
    listings.push({ id: created.id, name, condition, price, categoryId, point: { lat: placed!.lat!, lon: placed!.lon! } });
  }
  // Listings whose location names no town: never near anything.
  for (let i = 0; i < 5; i++) {
    const created = await createProduct(t.db, { categoryId: categories[0]!, sellerId: seller.id }, { productName: 'Oak table', location: 'Qxzqxz' });
    listings.push({ id: created.id, name: 'Oak table', condition: 'Good', price: 150, categoryId: categories[0]!, point: null });
  }
});

async function everyPage(query: string, limit = 100): Promise<Product[]> {
  const found: Product[] = [];
  let cursor: string | null = null;
  do {
    const response = await t.app.inject({ method: 'GET', url: `/api/products?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}` });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Product[]; nextCursor: string | null };
    found.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor);
  return found;
}

const within = (centre: { lat: number; lon: number }, radiusKm: number) =>
  listings.filter((listing) => listing.point && haversineKm(centre, listing.point) <= radiusKm);

describe('GET /api/products near a point', () => {
  it('keeps exactly the listings within the radius, as the haversine formula measures it, nearest first with their distance', async () => {
    for (const radiusKm of [5, 60, 150, 500]) {
      const found = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&radiusKm=${radiusKm}&sort=distance`);
      const expected = within(DHAKA, radiusKm);
      expect(expected.length).toBeGreaterThan(0);
      expect(found.map((product) => product._id).sort()).toEqual(expected.map((listing) => listing.id).sort());
      for (const product of found) {
        const reference = haversineKm(DHAKA, product.point!);
        expect(product.distanceKm).toBe(Math.round(reference * 10) / 10);
      }
      const distances = found.map((product) => haversineKm(DHAKA, product.point!));
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
    }
  });

  it('reaches 25 km unless told, and pages nearest first neither skipping nor repeating, ties included', async () => {
    const expected = within(DHAKA, NEAR_DEFAULT_RADIUS_KM);
    const whole = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&sort=distance`);
    expect(whole.map((product) => product._id).sort()).toEqual(expected.map((listing) => listing.id).sort());
    const wider = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&radiusKm=400&sort=distance`);
    const paged = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&radiusKm=400&sort=distance`, 7);
    expect(paged.map((product) => product._id)).toEqual(wider.map((product) => product._id));
    expect(new Set(paged.map((product) => product._id)).size).toBe(paged.length);
    const points = paged.map((product) => `${product.point!.lat},${product.point!.lon}`);
    expect(new Set(points).size).toBeLessThan(points.length);
  });

  it('combines with words, every filter and every sort', async () => {
    const radiusKm = 300;
    const near = within(DHAKA, radiusKm);
    const cases: { query: string; keep: (listing: Listing) => boolean }[] = [
      { query: 'q=oak', keep: (listing) => listing.name === 'Oak table' },
      { query: 'q=oak&condition=Good', keep: (listing) => listing.name === 'Oak table' && listing.condition === 'Good' },
      { query: `categoryId=${categories[1]}&minPrice=100&maxPrice=300`, keep: (listing) => listing.categoryId === categories[1] && listing.price >= 100 && listing.price <= 300 },
      { query: 'q=sofa&condition=Fair&condition=Excellent', keep: (listing) => listing.name === 'Leather sofa' && listing.condition !== 'Good' },
    ];
    for (const { query, keep } of cases) {
      const expected = near.filter(keep).map((listing) => listing.id).sort();
      for (const sort of ['distance', 'newest', 'price-asc', 'price-desc', ...(query.includes('q=') ? ['relevance'] : [])]) {
        const found = await everyPage(`${query}&near=${DHAKA.lat},${DHAKA.lon}&radiusKm=${radiusKm}&sort=${sort}`, 9);
        expect(found.map((product) => product._id).sort(), `${query} sort=${sort}`).toEqual(expected);
      }
    }
  });

  it('takes a town for the point, by its id or its name', async () => {
    const byPoint = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&radiusKm=80&sort=distance`);
    expect(byPoint.length).toBeGreaterThan(0);
    for (const nearPlace of ['1185241', 'Dhaka', 'dhaka']) {
      const found = await everyPage(`nearPlace=${nearPlace}&radiusKm=80&sort=distance`);
      expect(found.map((product) => [product._id, product.distanceKm])).toEqual(byPoint.map((product) => [product._id, product.distanceKm]));
    }
  });

  it('keeps the listings in a map’s area (bbox)', async () => {
    const box = { minLon: 89.5, minLat: 23, maxLon: 91, maxLat: 24.5 };
    const found = await everyPage(`bbox=${box.minLon},${box.minLat},${box.maxLon},${box.maxLat}`);
    const expected = listings.filter(({ point }) => point && point.lat >= box.minLat && point.lat <= box.maxLat && point.lon >= box.minLon && point.lon <= box.maxLon);
    expect(expected.length).toBeGreaterThan(0);
    expect(found.map((product) => product._id).sort()).toEqual(expected.map((listing) => listing.id).sort());
  });

  it('reaches across the antimeridian and over a pole, where a box of longitudes would end', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    // Towns of the test's own, two on each side of the antimeridian and two on each side of the north pole.
    const towns = [
      { id: 2_000_000_001, lat: 0, lon: 179.9 },
      { id: 2_000_000_002, lat: 0, lon: -179.9 },
      { id: 2_000_000_003, lat: 89.5, lon: 10 },
      { id: 2_000_000_004, lat: 89.5, lon: -170 },
    ];
    const ids = new Map<number, string>();
    for (const town of towns) {
      await t.db.execute(
        sql`insert into places (id, name, region, country, lat, lon, population, folded_name) values (${town.id}, ${`Edge ${town.id}`}, '', 'ZZ', ${town.lat}, ${town.lon}, 1000, ${`edge ${town.id}`})`,
      );
      const created = await createProduct(t.db, { categoryId: categories[0]!, sellerId: seller.id }, { productName: 'Oak table', location: 'Anywhere' });
      await t.db.update(products).set({ placeId: town.id }).where(eq(products.id, created.id));
      ids.set(town.id, created.id);
    }
    const idsNear = async (near: string, radiusKm: number) => (await everyPage(`near=${near}&radiusKm=${radiusKm}&sort=distance`)).map((product) => product._id);
    // 5.6 km to the town west of the line, 16.7 km to the one east of it.
    expect(await idsNear('0,179.95', 20)).toEqual([ids.get(2_000_000_001), ids.get(2_000_000_002)]);
    expect(await idsNear('0,-179.99', 20)).toEqual([ids.get(2_000_000_002), ids.get(2_000_000_001)]);
    expect(await idsNear('0,179.95', 10)).toEqual([ids.get(2_000_000_001)]);
    // The two polar towns are 111 km apart across the pole, on opposite meridians.
    expect(await idsNear('89.5,10', 150)).toEqual([ids.get(2_000_000_003), ids.get(2_000_000_004)]);
    expect(await idsNear('89.5,10', 100)).toEqual([ids.get(2_000_000_003)]);
  });

  it('pages nearest first through a town with more listings than a page, in id order at its distance', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const crowded = (await t.db.execute<{ id: number }>(sql`select id from places where folded_name = 'narayanganj' order by population desc limit 1`)).rows[0]!.id;
    for (let i = 0; i < 30; i++) {
      const created = await createProduct(t.db, { categoryId: categories[1]!, sellerId: seller.id }, { productName: 'Pine shelf', condition: 'Good', resalePrice: '90.00', location: 'Anywhere' });
      const [placed] = await t.db.update(products).set({ placeId: crowded }).where(eq(products.id, created.id)).returning();
      listings.push({ id: created.id, name: 'Pine shelf', condition: 'Good', price: 90, categoryId: categories[1]!, point: { lat: placed!.lat!, lon: placed!.lon! } });
    }
    const expected = within(DHAKA, 60)
      .map((listing) => ({ id: listing.id, metres: haversineKm(DHAKA, listing.point!) }))
      .sort((a, b) => a.metres - b.metres || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((listing) => listing.id);
    expect(expected.length).toBeGreaterThan(40);
    for (const limit of [4, 11]) {
      const paged = await everyPage(`near=${DHAKA.lat},${DHAKA.lon}&radiusKm=60&sort=distance`, limit);
      expect(paged.map((product) => product._id)).toEqual(expected);
    }
  });

  it('answers 400 naming the parameter for a bad point, radius, town, box or sort', async () => {
    const bad: [string, string][] = [
      ['near=abc', 'near'],
      ['near=91,0', 'near'],
      ['near=23.7', 'near'],
      ['near=23.7,190', 'near'],
      ['near=1,2&radiusKm=0', 'radiusKm'],
      ['near=1,2&radiusKm=501', 'radiusKm'],
      ['near=1,2&radiusKm=far', 'radiusKm'],
      ['radiusKm=10', 'radiusKm'],
      ['sort=distance', 'sort'],
      ['nearPlace=Qxzqxzqxz', 'nearPlace'],
      ['nearPlace=999999999', 'nearPlace'],
      ['near=1,2&nearPlace=Dhaka', 'nearPlace'],
      ['bbox=1,2,3', 'bbox'],
      ['bbox=3,2,1,4', 'bbox'],
    ];
    for (const [query, parameter] of bad) {
      const response = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(parameter);
    }
  });
});
