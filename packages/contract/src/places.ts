import { z } from 'zod';
import { plainString } from './schemas.ts';

/** Suggestions a place search answers at most. */
export const PLACE_SUGGESTIONS_LIMIT = 10;
/** Longest text a place search or a location may be. */
export const PLACE_QUERY_MAX_LENGTH = 100;

/**
 * A town of the gazetteer (GeoNames): its id, name, first-level division code, country code and
 * point; or a place the geocoder (GEOCODER_URL) found, whose id starts with `geocoder:`. Only the
 * geocoder knows the division's name (`regionName`): the gazetteer installed has codes alone.
 */
export const place = z.object({
  _id: z.string(),
  name: z.string(),
  region: z.string(),
  regionName: z.string().nullable(),
  country: z.string(),
  lat: z.number(),
  lon: z.number(),
});
export type Place = z.infer<typeof place>;

export const placesQuery = z.object({
  q: plainString('q', 'q is required: the start of a town’s name')
    .trim()
    .min(1, 'q is required: the start of a town’s name')
    .max(PLACE_QUERY_MAX_LENGTH, `q must be at most ${PLACE_QUERY_MAX_LENGTH} characters`),
});
export type PlacesQuery = z.infer<typeof placesQuery>;

/** The gazetteer's credit, which its licence (CC BY 4.0) asks for wherever places are shown. */
export const placesCredit = {
  text: 'Places from GeoNames',
  href: 'https://www.geonames.org/',
  licence: 'CC BY 4.0',
} as const;
