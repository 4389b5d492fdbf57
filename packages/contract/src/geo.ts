/** Points on the earth, as search by distance measures them (decision 41). */
export interface LatLon {
  lat: number;
  lon: number;
}

/** The earth's radius earthdistance uses (earth()), in kilometres: distances here agree with its own. */
export const EARTH_RADIUS_KM = 6378.168;

/** Kilometres between two points, to a tenth: the haversine formula on earthdistance's sphere. */
export function distanceKmBetween(from: LatLon, to: LatLon): number {
  const radians = Math.PI / 180;
  const halfLat = ((to.lat - from.lat) * radians) / 2;
  const halfLon = ((to.lon - from.lon) * radians) / 2;
  const a = Math.sin(halfLat) ** 2 + Math.cos(from.lat * radians) * Math.cos(to.lat * radians) * Math.sin(halfLon) ** 2;
  return Math.round(2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a))) * 10) / 10;
}
