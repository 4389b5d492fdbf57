import { LOCATION_STORAGE_KEY, NEAR_DEFAULT_RADIUS_KM, type DataResponse, type LatLon, type Place } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from './api-client.ts';
import { placeKeys } from './query-keys.ts';

/** Towns (and, with a geocoder, places) whose name starts with the text: GET /api/places. */
export const placeSuggestionsQuery = (q: string) =>
  queryOptions({
    queryKey: placeKeys.suggest(q),
    queryFn: ({ signal }) => api<DataResponse<Place[]>>('/places', { query: { q }, signal }).then((r) => r.data),
    staleTime: Infinity,
    enabled: q.trim() !== '',
  });

const countryNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

/** A country's name from its ISO code ("BD": "Bangladesh"); the code when the browser has no name for it. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return countryNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * How a suggestion reads: the town, its region's name when known (only a geocoder knows it; the
 * gazetteer's region codes mean nothing to people) and its country's name.
 */
export function placeLabel(place: Place): string {
  return [place.name, place.regionName, countryName(place.country)].filter(Boolean).join(', ');
}

/**
 * Where the person searches from, as the location control keeps it on this device: a town of the
 * gazetteer (its id, which the search URL names as nearPlace) or a point (near: the browser's
 * location, or a place the geocoder found), with its label and radius.
 */
export interface ChosenLocation extends LatLon {
  label: string;
  placeId: string | null;
  radiusKm: number;
  byDistance: boolean;
}

const changed = new Set<() => void>();

function storedText(): string | null {
  try {
    return localStorage.getItem(LOCATION_STORAGE_KEY);
  } catch {
    // Storage switched off: as if nothing were chosen.
    return null;
  }
}

function parsed(text: string | null): ChosenLocation | null {
  try {
    const stored = JSON.parse(text ?? 'null') as Partial<ChosenLocation> | null;
    if (!stored || typeof stored.lat !== 'number' || typeof stored.lon !== 'number' || typeof stored.label !== 'string') return null;
    return {
      lat: stored.lat,
      lon: stored.lon,
      label: stored.label,
      placeId: typeof stored.placeId === 'string' ? stored.placeId : null,
      radiusKm: typeof stored.radiusKm === 'number' ? stored.radiusKm : NEAR_DEFAULT_RADIUS_KM,
      byDistance: stored.byDistance === true,
    };
  } catch {
    // A value this version cannot read.
    return null;
  }
}

// The same object while the stored text is the same, as useSyncExternalStore requires.
let lastText: string | null = null;
let lastLocation: ChosenLocation | null = null;
export function readChosenLocation(): ChosenLocation | null {
  const text = storedText();
  if (text !== lastText) {
    lastText = text;
    lastLocation = parsed(text);
  }
  return lastLocation;
}

export function storeChosenLocation(location: ChosenLocation | null) {
  try {
    if (location) localStorage.setItem(LOCATION_STORAGE_KEY, JSON.stringify(location));
    else localStorage.removeItem(LOCATION_STORAGE_KEY);
  } catch {
    // Not kept on this device; the URL still holds the choice.
  }
  for (const listener of changed) listener();
}

function subscribe(listener: () => void) {
  changed.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    changed.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/**
 * The location kept on this device, kept up to date (another tab may change it). None while a
 * page the server rendered is hydrated: the server cannot know it.
 */
export function useChosenLocation(): ChosenLocation | null {
  return useSyncExternalStore(subscribe, readChosenLocation, () => null);
}

/** A point to the search URL's precision: four decimals, about 10 m (the server rounds listings to 1 km anyway). */
const inDegrees = (value: number) => String(Math.round(value * 10_000) / 10_000);

/** The search URL's parameters for a location: nearPlace for a town of the gazetteer, near otherwise. */
export function withLocation(params: URLSearchParams, location: ChosenLocation | null): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['near', 'nearPlace', 'radiusKm', 'bbox']) next.delete(name);
  if (next.get('sort') === 'distance') next.delete('sort');
  if (!location) return next;
  if (location.placeId) next.set('nearPlace', location.placeId);
  else next.set('near', `${inDegrees(location.lat)},${inDegrees(location.lon)}`);
  next.set('radiusKm', String(location.radiusKm));
  if (location.byDistance) next.set('sort', 'distance');
  return next;
}

/** The location a search URL names, when it is the one kept on this device (which knows its label). */
export function locationOfUrl(params: URLSearchParams, stored: ChosenLocation | null): ChosenLocation | 'other' | null {
  const near = params.get('near');
  const nearPlace = params.get('nearPlace');
  if (!near && !nearPlace) return null;
  if (stored && (nearPlace ? stored.placeId === nearPlace : !stored.placeId && near === `${inDegrees(stored.lat)},${inDegrees(stored.lon)}`)) {
    return { ...stored, radiusKm: Number(params.get('radiusKm')) || NEAR_DEFAULT_RADIUS_KM, byDistance: params.get('sort') === 'distance' };
  }
  return 'other';
}
