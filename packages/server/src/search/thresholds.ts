import { FACET_COUNT_LIMIT, SEARCH_DEFAULT_LIMIT } from '@furniture/contract';

/**
 * Every number that decides the shape of a catalogue search's statements, or what its caches
 * hold, in one place (decision 48). Each says what it bounds and why that bound; the measured
 * figures that justify each are in decision 48 and `npm run bench:api`.
 */

/** At most this many words of a search are used; the rest cannot narrow it much further. */
export const MAX_SEARCH_WORDS = 8;

/**
 * A misspelt word is looked for among at most this many known stems sharing its trigrams: the
 * right one is among the first few, and each candidate costs a lookup of its counts.
 */
export const TRIGRAM_CANDIDATES = 20;

/**
 * A location matching more known places than this is looked up in the products' trigram index
 * instead of as a list of places: a list this long is a word in most place names ("a"), which the
 * index answers as well.
 */
export const MAX_PLACES = 200;

/**
 * A location matching at most this many places finds its words through the index of each
 * listing's stems under its place (migration 0024): one short posting list per stem and place. A
 * town is a handful of places; a big city's dozens are read through the places' B-tree instead.
 */
export const PLACE_WORDS_UP_TO = 16;

/**
 * How many of the newest listings whose names hold every word are ranked by how well their names
 * match (decision 12): a first page and the row that says another follows, so the first page of
 * a search by relevance reads no more rows than one newest first.
 */
export const RANKED_BY_NAME = SEARCH_DEFAULT_LIMIT + 1;

/**
 * While the rarest word of a search is in at most this many names, the listings named by every
 * word are collected from the name index and sorted; beyond, they are read newest first through
 * the rarest word's list (a sort of a thousand rows costs less than reading the list of a word
 * that seldom goes with the others).
 */
export const NAME_INDEX_UP_TO = 1_000;

/**
 * While a search's words match at most this many listings (what the first page's facets count
 * exactly), its pages collect every match from the text indexes and sort them, instead of reading
 * the listings in the page's order until it is full: PostgreSQL cannot tell how seldom two common
 * words go together, and would read the whole table for a page of none.
 */
export const COLLECT_UP_TO = FACET_COUNT_LIMIT;

/**
 * The fixed sample of listings (migration 0020, whose partial index this repeats): those whose id
 * ends in a byte below this. Ids are random, so it holds 3 in 256 (about 1 in 85) of any search.
 */
export const SAMPLE_BYTES_BELOW = 3;
export const SAMPLE_SHARE = SAMPLE_BYTES_BELOW / 256;

/**
 * A search each of whose words at least this many listings hold estimates its facets from the
 * sample: the sample then holds about 230 listings of the rarest word, so a filter leaving a tenth
 * of them still leaves 20 or more to scale, while a full count reads the bitmap of every listing
 * holding a word. The app's setting `facetSampleFrom` replaces it (tests lower it).
 */
export const FACET_SAMPLE_FROM = 20_000;

/** Below this many matches in the sample an estimate is too rough (about ±18 % at 30): the matches are counted. */
export const SAMPLED_AT_LEAST = 30;

/**
 * How many searches' facet groups, words and places each server caches (a few kilobytes, a few
 * stems, and mostly one place name each): more than the distinct searches a day of typical use
 * repeats, a few megabytes in all.
 */
export const CACHED_FACET_SEARCHES = 2_000;
export const CACHED_WORD_SEARCHES = 2_000;
export const CACHED_LOCATIONS = 2_000;
