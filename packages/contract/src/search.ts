import { z } from 'zod';
import { conditions } from './enums.ts';
import { category, centimetres, decimalNumber, errorResponse, idSchema, money, plainString, product } from './schemas.ts';

// ---------------------------------------------------------------- constants

export const SEARCH_DEFAULT_LIMIT = 24;
export const SEARCH_MAX_LIMIT = 100;
/**
 * Facet counts are exact while at most this many listings match; beyond, each count is a lower
 * bound. Counting more costs more on every first page of a broad search (decision 27). A search of
 * one word and no other filter is counted exactly at any size, from counts kept per word.
 */
export const FACET_COUNT_LIMIT = 1_000;
export const SIMILAR_PRODUCTS_LIMIT = 6;
/** The price guide answers from sales when at least this many comparable ones exist. */
export const PRICE_GUIDE_MIN_SALES = 5;

export const searchSorts = ['relevance', 'newest', 'price-asc', 'price-desc', 'distance'] as const;
export type SearchSort = (typeof searchSorts)[number];

/** A search near a point reaches this far unless it says (radiusKm), and at most the maximum. */
export const NEAR_DEFAULT_RADIUS_KM = 25;
export const NEAR_MAX_RADIUS_KM = 500;

// ---------------------------------------------------------------- search query

const decimal = /^-?\d{1,3}(\.\d{1,10})?$/;

/** `lat,lon` in degrees, as `near=23.78,90.41`. */
const nearPoint = z.string().transform((value, context) => {
  const parts = value.split(',');
  const [lat, lon] = parts.map(Number);
  if (parts.length !== 2 || !parts.every((part) => decimal.test(part.trim())) || Math.abs(lat!) > 90 || Math.abs(lon!) > 180) {
    context.addIssue({ code: 'custom', message: 'near must be a latitude (-90 to 90) and a longitude (-180 to 180) in degrees, as near=23.78,90.41' });
    return z.NEVER;
  }
  return { lat: lat!, lon: lon! };
});

/** `minLon,minLat,maxLon,maxLat` in degrees: the area a map shows. */
const boundingBox = z.string().transform((value, context) => {
  const parts = value.split(',');
  const [minLon, minLat, maxLon, maxLat] = parts.map(Number);
  const valid =
    parts.length === 4 && parts.every((part) => decimal.test(part.trim())) &&
    Math.abs(minLon!) <= 180 && Math.abs(maxLon!) <= 180 && Math.abs(minLat!) <= 90 && Math.abs(maxLat!) <= 90 &&
    minLon! <= maxLon! && minLat! <= maxLat!;
  if (!valid) {
    context.addIssue({ code: 'custom', message: 'bbox must be minLon,minLat,maxLon,maxLat in degrees, each minimum at most its maximum' });
    return z.NEVER;
  }
  return { minLon: minLon!, minLat: minLat!, maxLon: maxLon!, maxLat: maxLat! };
});

/** One or more values of a repeatable query parameter (`condition=Good&condition=Fair`). */
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item).max(10));

const booleanFlag = (field: string) =>
  z.enum(['true', 'false'], { error: `${field} must be true or false` }).transform((value) => value === 'true');

/**
 * GET /api/products. Every parameter is optional; an empty one counts as absent, so a form that
 * submits blank fields searches as if they were not there.
 */
export const searchQuery = z
  .object({
    q: plainString('q').trim().max(200, 'q must be at most 200 characters').optional(),
    categoryId: idSchema.optional(),
    condition: oneOrMany(z.enum(conditions, { error: `condition must be one of ${conditions.join(', ')}` })).optional(),
    minPrice: money('minPrice', { min: 0 }).optional(),
    maxPrice: money('maxPrice', { min: 0 }).optional(),
    location: plainString('location').trim().max(100, 'location must be at most 100 characters').optional(),
    sellerVerified: booleanFlag('sellerVerified').optional(),
    inStock: booleanFlag('inStock').optional(),
    spaceWidth: centimetres('spaceWidth').optional(),
    spaceDepth: centimetres('spaceDepth').optional(),
    spaceHeight: centimetres('spaceHeight').optional(),
    doorWidth: centimetres('doorWidth').optional(),
    doorHeight: centimetres('doorHeight').optional(),
    near: nearPoint.optional(),
    nearPlace: plainString('nearPlace').trim().max(100, 'nearPlace must be at most 100 characters').optional(),
    radiusKm: z.coerce
      .number({ error: 'radiusKm must be a number of kilometres' })
      .positive('radiusKm must be more than 0')
      .max(NEAR_MAX_RADIUS_KM, `radiusKm must be at most ${NEAR_MAX_RADIUS_KM}`)
      .optional(),
    bbox: boundingBox.optional(),
    sort: z.enum(searchSorts, { error: `sort must be one of ${searchSorts.join(', ')}` }).optional(),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be 1 or more')
      .max(SEARCH_MAX_LIMIT, `limit must be at most ${SEARCH_MAX_LIMIT}`)
      .optional(),
    cursor: plainString('cursor').max(500, 'cursor is not valid').optional(),
  })
  .superRefine((query, context) => {
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      context.addIssue({ code: 'custom', path: ['minPrice'], message: 'minPrice must not be more than maxPrice' });
    }
    if (query.sort === 'relevance' && !query.q) {
      context.addIssue({ code: 'custom', path: ['sort'], message: 'sort=relevance needs words to search for in q' });
    }
    const hasPoint = query.near !== undefined || query.nearPlace !== undefined;
    if (query.near !== undefined && query.nearPlace !== undefined) {
      context.addIssue({ code: 'custom', path: ['nearPlace'], message: 'nearPlace and near cannot both be given: choose one point' });
    }
    if (query.radiusKm !== undefined && !hasPoint) {
      context.addIssue({ code: 'custom', path: ['radiusKm'], message: 'radiusKm needs a point: near or nearPlace' });
    }
    if (query.sort === 'distance' && !hasPoint) {
      context.addIssue({ code: 'custom', path: ['sort'], message: 'sort=distance needs a point: near or nearPlace' });
    }
    if ((query.doorWidth === undefined) !== (query.doorHeight === undefined)) {
      const missing = query.doorWidth === undefined ? 'doorWidth' : 'doorHeight';
      context.addIssue({ code: 'custom', path: [missing], message: `${missing} is needed with the other door measurement` });
    }
  });
export type SearchQuery = z.output<typeof searchQuery>;

/** Blank parameters are dropped before validation, so `?q=&minPrice=` searches everything. */
export function withoutBlankParameters(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '' && value !== undefined));
}

// ---------------------------------------------------------------- products, extended

export const facets = z.object({
  condition: z.record(z.string(), z.number()),
  category: z.record(z.string(), z.number()),
  /** False when the counts are not exact: lower bounds (they stopped at FACET_COUNT_LIMIT matches) or estimates. */
  exact: z.boolean(),
  /**
   * True when a broad search's counts were estimated from a fixed sample of the catalogue (about
   * 1 in 85 listings; exact is then false): each is rounded to two significant digits
   * (`roundedEstimate`), and a value given as 0 has matches too few for the sample to hold any
   * (a value without matches is left out).
   */
  estimated: z.boolean(),
});
export type Facets = z.infer<typeof facets>;

export const searchResponse = z.object({
  success: z.literal(true),
  data: z.array(product),
  nextCursor: z.string().nullable(),
  /** Counts for the first page of a search; later pages (with a cursor) answer null. */
  facets: facets.nullable(),
});
export type SearchResponse = z.infer<typeof searchResponse>;

/** What anyone may know of a seller. */
export const sellerProfile = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  verified: z.boolean(),
  memberSince: z.string(),
  itemsSold: z.number(),
  /** The average of the reviews about this seller, to one decimal; null before the first (decision 23). */
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
});
export type SellerProfile = z.infer<typeof sellerProfile>;

export const productDetails = product.extend({
  category: category.pick({ _id: true, categoryName: true }),
  seller: sellerProfile,
  similar: z.array(product),
});
export type ProductDetails = z.infer<typeof productDetails>;

/**
 * `GET /api/products/{id}` of a listing that existed but is no longer public (hidden or removed by
 * an admin, withdrawn, expired): 410, its name and similar pieces on sale. One that never existed is 404.
 */
export const goneProduct = errorResponse.extend({
  data: z.object({ _id: idSchema, productName: z.string(), similar: z.array(product) }),
});
export type GoneProduct = z.infer<typeof goneProduct>;

// ---------------------------------------------------------------- fair-price guide

export const priceGuideQuery = z.object({
  categoryId: idSchema,
  condition: z.enum(conditions, { error: `condition must be one of ${conditions.join(', ')}` }),
  originalPrice: money('originalPrice'),
  yearsUsed: decimalNumber('yearsUsed must be a number').pipe(
    z.number().min(0, 'yearsUsed must not be negative').max(100, 'yearsUsed must be at most 100'),
  ),
});
export type PriceGuideQuery = z.output<typeof priceGuideQuery>;

export const priceGuideBases = ['sales', 'estimate'] as const;

export const priceGuide = z.object({
  low: z.number(),
  typical: z.number(),
  high: z.number(),
  /** 'sales': from comparable sales; 'estimate': too few of them, so depreciated from the original price. */
  basis: z.enum(priceGuideBases),
  salesCount: z.number(),
});
export type PriceGuide = z.infer<typeof priceGuide>;

/**
 * How many years a "Year of Used" text states: "2 years", "6 months", "1.5". Null when it names
 * no number. The database reads the same text with the same rule (products.years_used).
 */
export function yearsFromText(text: string): number | null {
  const match = /(\d+(?:\.\d+)?)/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  return /month/i.test(text) ? value / 12 : value;
}
