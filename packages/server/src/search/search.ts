import type { SQL } from 'drizzle-orm';
import { SEARCH_DEFAULT_LIMIT, type Facets, type SearchQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import type { ProductRecord } from '../products/product-repository.ts';
import { decodeCursor, encodeCursor, searchFingerprint } from './cursor.ts';
import { searchPointOf, withinRadius, type SearchPoint } from './distance.ts';
import { countFacets, facetKey, facetsOf, type FacetCount } from './facets.ts';
import {
  facetConditions,
  filterConditions,
  matchesAnywhere,
  placeCondition,
  placesMatching,
  searchSortOf,
  searchWordsFor,
  wordsInPlaces,
  type PlacesFound,
  type SearchedWords,
} from './query.ts';
import { choosePageShape, needsFacetCount, plannedOnce } from './shape.ts';
import { amongThose, orderedPage, pageQueryOf, relevancePage, type PageMatches } from './sql.ts';
import { FACET_SAMPLE_FROM } from './thresholds.ts';

export interface SearchResult {
  rows: ProductRecord[];
  nextCursor: string | null;
  facets: Facets | null;
  /** The point the search was near, which each listing's distance is measured from. */
  point: SearchPoint | null;
}

/** A value read for a search by `key`, which a cache may answer from an earlier read (search-caches.ts). */
export type CachedRead<T> = (key: string, read: () => Promise<T>) => Promise<T>;

/**
 * What a search may answer from what was read for an earlier one (search-caches.ts): its facet
 * groups (by `facetKey`), its words (by text) and its places (by location); each read afresh when
 * not given.
 */
export interface SearchCaches {
  facetGroupsOf?: CachedRead<FacetCount>;
  wordsOf?: CachedRead<SearchedWords | null>;
  placesOf?: CachedRead<PlacesFound | null>;
}

const readEveryTime = <T>(_key: string, read: () => Promise<T>) => read();

/**
 * One page of a catalogue search, with its next cursor and, on the first page, its facets. Its
 * words, places and facet groups may come from `caches`.
 */
export async function searchCatalogue(
  db: Executor,
  query: SearchQuery,
  { facetGroupsOf = readEveryTime, wordsOf = readEveryTime, placesOf = readEveryTime }: SearchCaches = {},
  { facetSampleFrom = FACET_SAMPLE_FROM } = {},
): Promise<SearchResult> {
  const sort = searchSortOf(query);
  const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
  const fingerprint = searchFingerprint({ ...query, sort });
  const after = query.cursor ? decodeCursor(query.cursor, sort, fingerprint) : null;
  const [searched, placesFound, point] = await Promise.all([
    query.q ? wordsOf(query.q, () => searchWordsFor(db, query.q!)) : null,
    query.location ? placesOf(query.location, () => placesMatching(db, query.location!)) : null,
    searchPointOf(db, query),
  ]);
  const places = placesFound?.places ?? null;

  const words = searched?.words ?? null;
  const place = placeCondition(query, places);
  const radius = point ? withinRadius(point) : undefined;
  const besidesPlace = filterConditions(query, radius);
  const filters = place ? [...besidesPlace, place] : besidesPlace;
  const inPlaces = words && places ? wordsInPlaces(words, places) : null;
  // Relevance tiers match the words each in its own way; everything else matches them anywhere.
  const besides = inPlaces ? [...besidesPlace, inPlaces] : words ? [...filters, matchesAnywhere(words)] : filters;
  const { category, condition } = facetConditions(query);
  /** Every match, when this very search counted them all for its facets (not when stored or cached counts answered them). */
  let counted: string[] | null = null;
  const facetInputs = { query, searched, placesFound, besides, besidesPlace, place, sampleFrom: facetSampleFrom };
  const facetCount = after ? null : facetGroupsOf(facetKey(query), () => countFacets(db, facetInputs, (ids) => (counted = ids)));
  // Awaited below, where a failure is thrown; meanwhile it must not count as unhandled.
  void facetCount?.catch(() => undefined);

  let matches: PageMatches | null = null;
  if (searched) {
    const shape = choosePageShape({
      words: searched,
      within: query,
      facetCount: facetCount && needsFacetCount(searched, query) ? await facetCount : null,
      countedIds: counted !== null,
      placeWords: inPlaces !== null,
      cursorSaysFew: after?.few === true,
    });
    const found = shape.matchesFrom === 'counted ids' ? amongThose(counted!) : shape.matchesFrom === 'place words' ? inPlaces! : undefined;
    matches = { shape, found, othersInPlace: inPlaces && !found ? { test: inPlaces, filters: [...besidesPlace, category, condition] } : undefined };
  }
  const pageQuery = pageQueryOf(db, plannedOnce(query));

  const pagePromise = async () => {
    // The stored counts are exact for what the public sees: when none holds every word, no listing is read.
    if (matches?.shape.matchesAtMost === 0) return { rows: [], rankedUntil: null, othersFew: false };
    // Matches found by id or through the place words are in their place: its index would only be ANDed with them.
    const pageFilters: (SQL | undefined)[] = [...(matches?.found ? besidesPlace : filters), category, condition];
    if (sort === 'relevance') return relevancePage(db, pageQuery, pageFilters, words, after, limit + 1, matches);
    const rows = await orderedPage(pageQuery, pageFilters, sort, { words, matches, point, radius, after, plannedOnce: plannedOnce(query), rows: limit + 1 });
    return { rows, rankedUntil: null, othersFew: false };
  };
  const [{ rows, rankedUntil, othersFew }, facets] = await Promise.all([pagePromise(), facetCount?.then((count) => facetsOf(query, count)) ?? null]);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // Few others are collected from the next page on only when it starts among them: one starting
  // among the listings named by the words reads those from the names alone (their list newest
  // first, or their index when few), where collecting would read every match of the places.
  const few = inPlaces !== null && ((matches?.shape.collectAll ?? false) || (othersFew && last?.sortKey.startsWith('3|') === true));
  const nextCursor = rows.length > limit && last ? encodeCursor({ sort, key: last.sortKey, id: last.id, rankedUntil, few }, fingerprint) : null;
  return { rows: page, nextCursor, facets, point };
}
