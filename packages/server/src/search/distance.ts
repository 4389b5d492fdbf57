import { sql, type SQL } from 'drizzle-orm';
import { distanceKmBetween, NEAR_DEFAULT_RADIUS_KM, serverMessages, type SearchQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products } from '../db/schema/index.ts';
import { badRequest } from '../http/errors.ts';
import { findPlacePoint } from '../places/place-repository.ts';

/**
 * Search by distance (decisions 41 and 53): the point a search is near and how far it reaches, the
 * listings within that circle (the latitudes and longitudes around it, read from the products'
 * B-tree of points, then the exact great-circle distance), and the order nearest first.
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

/** The radius of earthdistance's sphere, on which earth_distance measures metres. */
const EARTH_RADIUS_M = 6_378_168;
/** A margin far below the two decimals of a listing's point, so rounding cannot leave out one on the circle's edge. */
const MARGIN_DEGREES = 1e-6;
const degrees = (radians: number) => (radians * 180) / Math.PI;

/**
 * The latitudes and longitudes of every point within `metres` of the centre: the box around the
 * circle, every longitude when it reaches a pole, and two ranges when it crosses the antimeridian.
 * Ranges the B-tree reads, and whose share of the listings PostgreSQL estimates from their histograms.
 */
function boxAround(point: SearchPoint, metres: number): SQL {
  const angle = metres / EARTH_RADIUS_M;
  const latReach = degrees(angle) + MARGIN_DEGREES;
  const [minLat, maxLat] = [point.lat - latReach, point.lat + latReach];
  const latitudes = sql`${products.lat} between ${minLat}::float8 and ${maxLat}::float8`;
  if (minLat <= -90 || maxLat >= 90) return latitudes;
  const lonReach = degrees(Math.asin(Math.sin(angle) / Math.cos((point.lat * Math.PI) / 180))) + MARGIN_DEGREES;
  const [minLon, maxLon] = [point.lon - lonReach, point.lon + lonReach];
  if (minLon < -180) return sql`${latitudes} and (${products.lon} >= ${minLon + 360}::float8 or ${products.lon} <= ${maxLon}::float8)`;
  if (maxLon > 180) return sql`${latitudes} and (${products.lon} >= ${minLon}::float8 or ${products.lon} <= ${maxLon - 360}::float8)`;
  return sql`${latitudes} and ${products.lon} between ${minLon}::float8 and ${maxLon}::float8`;
}

/** The listings within the radius: the box around it the index reads, then the exact distance. */
export function withinRadius(point: SearchPoint): SQL {
  const metres = point.radiusKm * 1000;
  return sql`${boxAround(point, metres)} and ${metresFrom(point)} <= ${metres}::float8`;
}

/** The listings in a map's area (not across the antimeridian: the box's minimum is west of its maximum). */
export function withinBox(box: NonNullable<SearchQuery['bbox']>): SQL {
  return sql`${products.lat} between ${box.minLat}::float8 and ${box.maxLat}::float8 and ${products.lon} between ${box.minLon}::float8 and ${box.maxLon}::float8`;
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
