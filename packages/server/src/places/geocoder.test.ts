import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';

/**
 * A tiny Nominatim: /search answers what `answer` says for the q it is asked, and records each
 * request; "Broken" gets a 500.
 */
const asked: URLSearchParams[] = [];
const fake = http.createServer((request, response) => {
  const params = new URL(request.url ?? '/', 'http://fake').searchParams;
  asked.push(params);
  if (!request.url?.startsWith('/search') || params.get('q') === 'Broken') {
    response.writeHead(500).end('down');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify([
      {
        place_id: 301,
        lat: '23.7643863',
        lon: '90.3890144',
        name: 'Dhaka',
        display_name: 'Dhaka, Dhaka Division, Bangladesh',
        address: { city: 'Dhaka', state: 'Dhaka Division', country_code: 'bd' },
      },
      { place_id: 302, lat: 'not a number', lon: '1', name: 'Nowhere' },
    ]),
  );
});
let fakeUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const t = setupTestApp();

interface Suggestion {
  _id: string;
  name: string;
  regionName: string | null;
  country: string;
  lat: number;
  lon: number;
}

async function suggest(q: string, geocoderUrl: string | undefined): Promise<Suggestion[]> {
  t.app.config.geocoderUrl = geocoderUrl;
  // Every call a different URL: the response cache keeps answers by URL.
  const response = await t.app.inject({ method: 'GET', url: `/api/places?q=${encodeURIComponent(q)}&_=${asked.length}-${Math.random()}` });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: Suggestion[] }).data;
}

describe('GET /api/places with GEOCODER_URL', () => {
  it('puts the geocoder’s places first, with their region’s name and a point rounded to about 1 km, then the towns it did not find', async () => {
    const found = await suggest('Dhaka', fakeUrl);
    expect(asked.at(-1)).toMatchObject(new URLSearchParams({ q: 'Dhaka', format: 'jsonv2', addressdetails: '1', limit: '10' }));
    expect(found[0]).toEqual({ _id: 'geocoder:301', name: 'Dhaka', region: '', regionName: 'Dhaka Division', country: 'BD', lat: 23.76, lon: 90.39 });
    // The gazetteer's Dhaka is the same town: not suggested twice. Its other towns follow; the unreadable result is left out.
    expect(found.filter((place) => place.name === 'Dhaka' && place.country === 'BD')).toHaveLength(1);
    expect(found.length).toBeGreaterThan(1);
    expect(found.slice(1).every((place) => /^\d+$/.test(place._id) && place.regionName === null)).toBe(true);
    expect(found.some((place) => place.name === 'Nowhere')).toBe(false);
  });

  it('answers from the gazetteer alone when the geocoder fails or cannot be reached', async () => {
    const broken = await suggest('Broken', fakeUrl);
    expect(broken.every((place) => /^\d+$/.test(place._id))).toBe(true);
    expect(broken.length).toBeGreaterThan(0);
    const unreachable = await suggest('Dhaka', 'http://127.0.0.1:9');
    expect(unreachable[0]).toMatchObject({ _id: '1185241', name: 'Dhaka', regionName: null });
  });

  it('asks no geocoder when none is set', async () => {
    const before = asked.length;
    expect((await suggest('Dhaka', undefined))[0]).toMatchObject({ _id: '1185241' });
    expect(asked.length).toBe(before);
  });
});
