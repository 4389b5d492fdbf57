import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { distanceKmBetween, NEAR_DEFAULT_RADIUS_KM, serverMessages, type SearchQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { places, products } from '../db/schema/index.ts';
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
/** How far rounding to two decimals moves a place's point to its listings' (migration 0034). */
const ROUNDING_DEGREES = 0.005;
const degrees = (radians: number) => (radians * 180) / Math.PI;

/**
 * The latitudes and longitudes of every point within `metres` of the centre, `margin` degrees
 * more: the box around the circle, every longitude when it reaches a pole, and two ranges when it
 * crosses the antimeridian. Ranges a B-tree reads, and whose share of the rows PostgreSQL
 * estimates from their histograms.
 */
function boxAround(point: SearchPoint, metres: number, { lat, lon }: { lat: AnyPgColumn; lon: AnyPgColumn }, margin: number): SQL {
  const angle = metres / EARTH_RADIUS_M;
  const latReach = degrees(angle) + margin;
  const [minLat, maxLat] = [point.lat - latReach, point.lat + latReach];
  const latitudes = sql`${lat} between ${minLat}::float8 and ${maxLat}::float8`;
  if (minLat <= -90 || maxLat >= 90) return latitudes;
  const lonReach = degrees(Math.asin(Math.sin(angle) / Math.cos((point.lat * Math.PI) / 180))) + margin;
  const [minLon, maxLon] = [point.lon - lonReach, point.lon + lonReach];
  if (minLon < -180) return sql`${latitudes} and (${lon} >= ${minLon + 360}::float8 or ${lon} <= ${maxLon}::float8)`;
  if (maxLon > 180) return sql`${latitudes} and (${lon} >= ${minLon}::float8 or ${lon} <= ${maxLon - 360}::float8)`;
  return sql`${latitudes} and ${lon} between ${minLon}::float8 and ${maxLon}::float8`;
}

/** The listings within the radius: the box around it the index reads, then the exact distance. */
export function withinRadius(point: SearchPoint): SQL {
  const metres = point.radiusKm * 1000;
  return sql`${boxAround(point, metres, products, MARGIN_DEGREES)} and ${metresFrom(point)} <= ${metres}::float8`;
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

/** A place's point as its listings have it, rounded to two decimals (migration 0034). */
const placesRoundedPoint = sql`ll_to_earth(round(${places.lat}::numeric, 2)::float8, round(${places.lon}::numeric, 2)::float8)`;

/**
 * Nearest first, read place by place: every listing's point is its place's, rounded (migration
 * 0034), so all of a place's listings are as far. `near(after)` is the places whose listings are
 * within the circle, nearest first ("place_id", "metres"; with a cursor's metres, none nearer), and
 * a page reads each one's listings in id order (the products' (place_id, id) index) until it is
 * full, instead of reading and sorting every listing within the circle (decision 53). The order and
 * key are the place's metres, which are its listings' own.
 */
export function placeByPlace(point: SearchPoint) {
  const metres = point.radiusKm * 1000;
  const placeMetres = sql`earth_distance(${centre(point)}, ${placesRoundedPoint})`;
  return {
    near: (afterKey?: string) =>
      sql`select ${places.id} as place_id, ${placeMetres} as metres from ${places}
        where ${boxAround(point, metres, places, ROUNDING_DEGREES + MARGIN_DEGREES)} and ${placeMetres} <= ${metres}::float8${afterKey === undefined ? sql`` : sql` and ${placeMetres} >= ${afterKey}::float8`}
        order by metres`,
    key: sql`"near"."metres"::text`,
    orderBy: [sql`"near"."metres"`, sql`${products.id}`],
  };
}

/** Kilometres from the point to a listing's, to a tenth (the contract's haversine, which the web app uses too). */
export function distanceKm(point: SearchPoint, lat: number, lon: number): number {
  return distanceKmBetween(point, { lat, lon });
}
