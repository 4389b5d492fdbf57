import { sql, type SQL } from 'drizzle-orm';
import { distanceKmBetween, NEAR_DEFAULT_RADIUS_KM, serverMessages, type SearchQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products } from '../db/schema/index.ts';
import { badRequest } from '../http/errors.ts';
import { findPlacePoint } from '../places/place-repository.ts';

/**
 * Search by distance (decision 41): the point a search is near and how far it reaches, the
 * listings within that circle (earthdistance's box around the point, read from the products'
 * GiST index, then the exact great-circle distance), and the order nearest first.
 */
export interface SearchPoint {
  lat: number;
  lon: number;
  radiusKm: number;
}

/** The point of `near`, or of the town `nearPlace` names (400 when none); null for a search near nowhere. */
export async function searchPointOf(db: Executor, query: SearchQuery): Promise<SearchPoint | null> {
  const radiusKm = query.radiusKm ?? NEAR_DEFAULT_RADIUS_KM;
  if (query.near) return { ...query.near, radiusKm };
  if (!query.nearPlace) return null;
  const point = await findPlacePoint(db, query.nearPlace);
  if (!point) throw badRequest(serverMessages.products.unknownPlace);
  return { ...point, radiusKm };
}

const listingPoint = sql`ll_to_earth(${products.lat}, ${products.lon})`;
const centre = (point: SearchPoint) => sql`ll_to_earth(${point.lat}::float8, ${point.lon}::float8)`;

/** Metres from the point to a listing. */
export const metresFrom = (point: SearchPoint) => sql`earth_distance(${centre(point)}, ${listingPoint})`;

/** The listings within the radius: the box the index finds, then the exact distance. */
export function withinRadius(point: SearchPoint): SQL {
  const metres = point.radiusKm * 1000;
  return sql`earth_box(${centre(point)}, ${metres}::float8) @> ${listingPoint} and ${metresFrom(point)} <= ${metres}::float8`;
}

/**
 * The listings in a map's area (not across the antimeridian: the box's minimum is west of its
 * maximum): those of the circle around its centre through its corners, read from the same index,
 * then those in the box.
 */
export function withinBox(box: NonNullable<SearchQuery['bbox']>): SQL {
  const middle = { lat: (box.minLat + box.maxLat) / 2, lon: (box.minLon + box.maxLon) / 2, radiusKm: 0 };
  const cornerKm = Math.max(distanceKm(middle, box.minLat, box.minLon), distanceKm(middle, box.maxLat, box.minLon));
  // A tenth of a kilometre more than the farthest corner, which distanceKm rounded.
  const circle = sql`earth_box(${centre(middle)}, ${(cornerKm + 0.1) * 1000}::float8) @> ${listingPoint}`;
  return sql`${circle} and ${products.lat} between ${box.minLat}::float8 and ${box.maxLat}::float8 and ${products.lon} between ${box.minLon}::float8 and ${box.maxLon}::float8`;
}

/** Nearest first, then by id; the key is the distance in metres as PostgreSQL prints it (exactly, shortest form). */
export function nearestFirst(point: SearchPoint) {
  const metres = metresFrom(point);
  return {
    key: sql`${metres}::text`,
    orderBy: [sql`${metres} asc`, sql`${products.id} asc`],
    after: (key: string, id: string) => sql`(${metres}, ${products.id}) > (${key}::float8, ${id}::uuid)`,
  };
}

/** Kilometres from the point to a listing's, to a tenth (the contract's haversine, which the web app uses too). */
export function distanceKm(point: SearchPoint, lat: number, lon: number): number {
  return distanceKmBetween(point, { lat, lon });
}
