import { SEARCH_DEFAULT_LIMIT, type SearchQuery } from '@furniture/contract';
import type { FacetCount } from './facets.ts';
import { heldAtMost, searchSortOf, type PlacesFound, type SearchedWords } from './query.ts';
import { COLLECT_UP_TO, NAME_INDEX_UP_TO, SAMPLE_SHARE, SAMPLED_AT_LEAST } from './thresholds.ts';

/**
 * The shape of a search's statements, chosen from what is known before any listing is read: the
 * counts stored for its words and places, and the first page's facet counts (decision 48). Pure,
 * so every choice is table-tested (shape.test.ts); sql.ts and facets.ts turn the shape into SQL.
 */

/**
 * Where a search's facet groups come from:
 * - `stored counts`: one word or a location, and no other filter: the counts triggers store;
 * - `no match`: the stored counts show no group holds every word, so nothing is read;
 * - `count`: the matches are counted, up to FACET_COUNT_LIMIT;
 * - `sample, else count`: every word is common, so the sample estimates them (counted when the
 *   sample holds too few);
 * - `count, then sample`: common words in a few places whose share of them may be too small for
 *   the sample: counted first, the sample asked only when they are more than a count reads.
 */
export type FacetSource = 'stored counts' | 'no match' | 'count' | 'sample, else count' | 'count, then sample';

export interface FacetSourceInput {
  /** The search's facets can be read from stored counts (facets.ts, `storedCountsOf`). */
  storedCounts: boolean;
  words: Pick<SearchedWords, 'fewest' | 'fewestByGroup'> | null;
  placesFound: Pick<PlacesFound, 'listings' | 'catalogue'> | null;
  /** FACET_SAMPLE_FROM, or the app's setting. */
  sampleFrom: number;
}

export function chooseFacetSource({ storedCounts, words, placesFound, sampleFrom }: FacetSourceInput): FacetSource {
  if (storedCounts) return 'stored counts';
  if (words && heldAtMost(words) === 0) return 'no match';
  if (!words || words.fewest.anywhere < sampleFrom) return 'count';
  return sampleMayHoldEnough(words, placesFound) ? 'sample, else count' : 'count, then sample';
}

/**
 * Whether the fixed sample may hold SAMPLED_AT_LEAST of a broad search's matches. Without a place
 * it does: FACET_SAMPLE_FROM listings hold its rarest word, about 230 of them in the sample. In a
 * few places it holds about their share of them, if the words are spread over the places as the
 * listings are: a town's share of a common word is often too few to estimate from.
 */
function sampleMayHoldEnough(words: Pick<SearchedWords, 'fewest'>, placesFound: Pick<PlacesFound, 'listings' | 'catalogue'> | null): boolean {
  if (!placesFound?.catalogue || placesFound.listings === null) return true;
  const share = Math.min(1, placesFound.listings / placesFound.catalogue);
  return words.fewest.anywhere * share * SAMPLE_SHARE >= SAMPLED_AT_LEAST;
}

/** How the pages of a search with words find their matches. */
export interface PageShape {
  /** At most how many listings the page's filters leave hold every word; 0: no listing is read. */
  matchesAtMost: number;
  /** Every match is collected from the text indexes and sorted (at most COLLECT_UP_TO of them), not read in the page's order. */
  collectAll: boolean;
  /** The listings whose names hold every word are collected from the name index and sorted, not read through the rarest word's list. */
  collectNamed: boolean;
  /**
   * What finds every match, the place included, from a short list: the ids the first page's facets
   * counted (`counted ids`), or the index of words under places (`place words`); null: the words'
   * own indexes.
   */
  matchesFrom: 'counted ids' | 'place words' | null;
  /** The page reaching relevance's third tier counts the other matches in the places first, to collect them when few. */
  countOthersInPlaces: boolean;
  /** The stored counts show every listing holding a word names it: relevance's third tier is empty. */
  noOthers: boolean;
}

export interface PageShapeInput {
  words: Pick<SearchedWords, 'fewest' | 'othersAtMost' | 'fewestByGroup'>;
  within: Pick<SearchQuery, 'categoryId' | 'condition'>;
  /** The first page's facet counts, when they were needed: the stored counts allow more than COLLECT_UP_TO matches. */
  facetCount: Pick<FacetCount, 'groups' | 'complete'> | null;
  /** This very search counted its matches for its facets, and has their ids. */
  countedIds: boolean;
  /** The location resolved to few places, whose words have their own index (query.ts, `wordsInPlaces`). */
  placeWords: boolean;
  /** A later page whose cursor says the earlier ones counted few matches in the places. */
  cursorSaysFew: boolean;
}

/** Whether the first page's facet counts are needed to choose the page's shape: the stored counts alone allow many matches. */
export const needsFacetCount = (words: Pick<SearchedWords, 'fewestByGroup'>, within: PageShapeInput['within']) => heldAtMost(words, within) > COLLECT_UP_TO;

export function choosePageShape(input: PageShapeInput): PageShape {
  const { words, within, facetCount } = input;
  let matchesAtMost = heldAtMost(words, within);
  let collectAll = matchesAtMost <= COLLECT_UP_TO;
  let matchesFrom: PageShape['matchesFrom'] = null;
  // Every match was counted: the page's are those of the groups it asks for, and when this search
  // counted them, it reads them by id.
  if (!collectAll && facetCount?.complete) {
    const chosen = facetCount.groups.filter((group) => (!within.categoryId || group.categoryId === within.categoryId) && (!within.condition?.length || within.condition.includes(group.condition)));
    matchesAtMost = chosen.reduce((total, group) => total + group.count, 0);
    collectAll = matchesAtMost <= COLLECT_UP_TO;
    if (collectAll && input.countedIds) matchesFrom = 'counted ids';
  }
  // A later page of a search whose first page (or the page reaching the third tier) counted few in
  // its places collects them too: a forged cursor can only have a page collect what that index
  // holds of its words in its places.
  if (input.cursorSaysFew && input.placeWords) collectAll = true;
  if (collectAll && input.placeWords) matchesFrom ??= 'place words';
  return {
    matchesAtMost,
    collectAll,
    collectNamed: collectAll || words.fewest.inName <= NAME_INDEX_UP_TO,
    matchesFrom,
    countOthersInPlaces: input.placeWords && matchesFrom === null,
    noOthers: words.othersAtMost === 0,
  };
}

/**
 * Whether a search's pages are planned once for any value of their parameters (decision 30):
 * browsing, a category, conditions or the stock state, sorted by date or price, a page of the
 * usual size, which an index reads in the page's order whatever their values. Words, a place, a
 * price range, measurements, verified sellers, a point, and any parameter added later, are
 * planned for the values asked: how many listings match them decides the plan (decision 27).
 */
export function plannedOnce(query: SearchQuery): boolean {
  const { categoryId: _category, condition: _condition, inStock: _inStock, sort: _sort, cursor: _cursor, limit, ...narrowing } = query;
  return (limit ?? SEARCH_DEFAULT_LIMIT) === SEARCH_DEFAULT_LIMIT && searchSortOf(query) !== 'relevance' && Object.values(narrowing).every((value) => value === undefined);
}
