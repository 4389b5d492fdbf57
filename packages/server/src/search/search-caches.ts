import type { FastifyRequest } from 'fastify';
import type { DataVersions, WatchedTable } from '../cache/data-versions.ts';
import { VersionedCache } from '../cache/versioned-cache.ts';
import type { FacetCount } from './facets.ts';
import type { PlacesFound, SearchedWords } from './query.ts';
import type { CachedRead } from './search.ts';
import { CACHED_FACET_SEARCHES, CACHED_LOCATIONS, CACHED_WORD_SEARCHES } from './thresholds.ts';

/** What a search's facet groups are counted from: products, their categories, sellers and words. */
const FACET_TABLES: readonly WatchedTable[] = ['categories', 'products', 'users', 'search_terms'];
/** What a search's stems are read from: the vocabulary, and the word counts the products' triggers maintain. */
const WORDS_TABLES: readonly WatchedTable[] = ['products', 'search_terms'];
/** What a location's places are read from: the places and their counts, which the products' triggers maintain (categories' removal too). */
const PLACES_TABLES: readonly WatchedTable[] = ['categories', 'products'];

/**
 * What searches read from the catalogue, cached by key under the versions of the tables it was read
 * from (cache/versioned-cache.ts): a listing added through any app server is seen on the very next
 * search of every other. Searches asked together while one read is under way share it.
 */
function cachedReadOf<T>(versions: DataVersions, tables: readonly WatchedTable[], limit: number) {
  const cache = new VersionedCache<Promise<T>>(versions, limit);
  return (request: Pick<FastifyRequest, 'caughtUp'>): CachedRead<T> =>
    async (key, read) => cache.read(request, tables, key, read);
}

/**
 * Caches the facet groups each search counted (decision 27), so the same search sorted otherwise,
 * narrowed to a category or a condition, or asked again with the response cache bypassed, counts
 * nothing.
 */
export const facetCountCache = (versions: DataVersions) => cachedReadOf<FacetCount>(versions, FACET_TABLES, CACHED_FACET_SEARCHES);

/**
 * Caches the stems and counts each search's words were read as (decision 27), so the same words
 * asked again, with other filters, another sort or a later page, send no statement for them.
 */
export const searchWordsCache = (versions: DataVersions) => cachedReadOf<SearchedWords | null>(versions, WORDS_TABLES, CACHED_WORD_SEARCHES);

/**
 * Caches the places each location was read as, with their listings' stored counts (decision 27), so
 * a search in the same location, with other words, filters, sort or page, sends no statement for
 * them.
 */
export const searchPlacesCache = (versions: DataVersions) => cachedReadOf<PlacesFound | null>(versions, PLACES_TABLES, CACHED_LOCATIONS);
