import { PLACE_SUGGESTIONS_LIMIT, type Place } from '@furniture/contract';

/** How long a suggestion waits for the geocoder before it answers from the gazetteer alone. */
export const GEOCODER_TIMEOUT_MS = 1500;

/** The parts of a Nominatim `format=jsonv2` result that a suggestion uses. */
interface NominatimResult {
  place_id?: unknown;
  lat?: unknown;
  lon?: unknown;
  name?: unknown;
  display_name?: unknown;
  address?: { state?: unknown; region?: unknown; country_code?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
/** To about 1 km, as a listing's point is kept (decision 41). */
const roundedToKm = (degrees: number) => Math.round(degrees * 100) / 100;

function toPlace(result: NominatimResult): Place | null {
  const lat = Number(result.lat);
  const lon = Number(result.lon);
  const name = text(result.name) || text(result.display_name).split(',')[0]!.trim();
  const id = text(String(result.place_id ?? ''));
  if (!id || !name || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  const regionName = text(result.address?.state) || text(result.address?.region);
  return {
    _id: `geocoder:${id}`,
    name,
    region: '',
    regionName: regionName || null,
    country: text(result.address?.country_code).toUpperCase(),
    lat: roundedToKm(lat),
    lon: roundedToKm(lon),
  };
}

/**
 * Places a Nominatim-compatible service finds for the text. Throws when it does not answer well
 * within GEOCODER_TIMEOUT_MS: the caller then answers from the gazetteer alone.
 */
export async function askGeocoder(baseUrl: string, q: string): Promise<Place[]> {
  const url = new URL(`${baseUrl}/search`);
  url.search = new URLSearchParams({ q, format: 'jsonv2', addressdetails: '1', limit: String(PLACE_SUGGESTIONS_LIMIT) }).toString();
  const response = await fetch(url, { signal: AbortSignal.timeout(GEOCODER_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The geocoder answered ${response.status}`);
  const results: unknown = await response.json();
  if (!Array.isArray(results)) throw new Error('The geocoder answered something other than a list');
  return results.map((result) => toPlace(result as NominatimResult)).filter((found): found is Place => found !== null);
}

const sameTown = (a: Place, b: Place) => a.country === b.country && a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) === 0;

/** The geocoder's places first (they name their region), then the gazetteer's towns it did not find, up to the limit. */
export function mergeSuggestions(fromGeocoder: readonly Place[], fromGazetteer: readonly Place[]): Place[] {
  const notFound = fromGazetteer.filter((town) => !fromGeocoder.some((found) => sameTown(found, town)));
  return [...fromGeocoder, ...notFound].slice(0, PLACE_SUGGESTIONS_LIMIT);
}
