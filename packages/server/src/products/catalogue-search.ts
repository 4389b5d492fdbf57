import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import {
  type Condition,
  conditions,
  FACET_COUNT_LIMIT,
  roundedEstimate,
  SEARCH_DEFAULT_LIMIT,
  type Facets,
  type SearchQuery,
  type SearchSort,
} from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { executePrepared, outOfPlannersSight } from '../db/prepared.ts';
import { products, searchDocumentWords, searchNameWordCounts, searchNameWords, searchPlaceCounts, searchPlaces, searchWordCounts, users } from '../db/schema/index.ts';
import { nearestFirst, searchPointOf, withinBox, withinRadius, type SearchPoint } from './distance-search.ts';
import { fitsInSpaceSql, fitsThroughDoorwaySql } from './fit-geometry.ts';
import { isAvailable, listedProductsFrom, productRecordOf, productSelectList, publiclyVisible, type ProductRecord } from './product-repository.ts';
import { decodeCursor, encodeCursor, searchFingerprint, type Cursor } from './search-cursor.ts';
import { closestTerm, wordsOneEditAway, type Candidate } from './search-spelling.ts';

/** At most this many words of a search are used; the rest cannot narrow it much further. */
const MAX_SEARCH_WORDS = 8;
/** A misspelt word is looked for among at most this many known stems that share its trigrams. */
const TRIGRAM_CANDIDATES = 20;

export interface SearchResult {
  rows: ProductRecord[];
  nextCursor: string | null;
  facets: Facets | null;
  /** The point the search was near, which each listing's distance is measured from. */
  point: SearchPoint | null;
}

/** Quotes a lexeme for tsquery input: inside quotes, a backslash escapes the next character. */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/['\\]/g, '\\$&')}'`;

/** The stems of a search's words, in the order they were typed, misspelt ones corrected. */
export type SearchWords = string[];

/**
 * The tsquery every stem matches; with `weights`, only where the document gives those weights
 * (decision 12: A is the name).
 */
export function tsqueryOf(words: SearchWords, weights = ''): string {
  const label = weights ? `:${weights}` : '';
  return words.map((word) => `${quoteLexeme(word)}${label}`).join(' & ');
}

/** Listings whose search document holds every stem, anywhere in it. */
const matchesAnywhere = (words: SearchWords) => sql`${products.searchVector} @@ ${tsqueryOf(words)}::tsquery`;

/** A search's stems, and the counts it plans its pages by (see `gathering` in searchCatalogue). */
export interface SearchedWords {
  words: SearchWords;
  /**
   * From the counts triggers keep per stem: at most how many listings hold every stem anywhere
   * (the fewest holding one, migration 0017), and how many the rarest stem names (migration
   * 0019); 0 when a stem is held by none.
   */
  fewest: { anywhere: number; inName: number };
  /**
   * At most how many listings hold every stem without naming them all (relevance's third tier):
   * for each stem, the listings holding it less those naming it (migration 0026), summed. 0 when
   * every listing holding a stem names it.
   */
  othersAtMost: number;
  /**
   * Every group of listings (a category and a condition) in which each stem is held, with at most
   * how many of them hold every stem: the fewest holding one there, sold or not. A listing is in
   * one group, so a group missing here holds no match, and their sum bounds a search's matches.
   */
  fewestByGroup: WordGroup[];
}

/** The listings of one category in one condition. */
interface WordGroup {
  categoryId: string;
  condition: Condition;
  listings: number;
}

/**
 * At most how many listings hold every word of a search among those of the category and
 * conditions asked for (either left out: any), from the word counts alone.
 */
function heldAtMost({ fewestByGroup }: SearchedWords, within: Pick<SearchQuery, 'categoryId' | 'condition'> = {}): number {
  return fewestByGroup
    .filter((group) => (!within.categoryId || group.categoryId === within.categoryId) && (!within.condition?.length || within.condition.includes(group.condition)))
    .reduce((total, group) => total + group.listings, 0);
}

/**
 * How many listings hold a stem anywhere, how many of them leave it out of their names
 * (`unnamed`), by group (category and condition), and in their names, as the counts triggers keep
 * have it.
 */
type StemCounts = { anywhere: number; unnamed: number; in_name: number; by_group: [categoryId: string, condition: Condition, listings: number][] };
const stemCounts = (term: SQL) => sql`
  coalesce((select sum(k.listings) from ${searchWordCounts} k where k.term = ${term}), 0)::float8 as anywhere,
  coalesce((select sum(k.listings - k.named) from ${searchWordCounts} k where k.term = ${term}), 0)::float8 as unnamed,
  coalesce((select n.listings from ${searchNameWordCounts} n where n.term = ${term}), 0) as in_name,
  coalesce((select json_agg(json_build_array(g.category_id, g.condition, g.listings)) from (
    select k.category_id, k.condition, sum(k.listings)::float8 as listings from ${searchWordCounts} k
    where k.term = ${term} group by k.category_id, k.condition having sum(k.listings) > 0
  ) g), '[]') as by_group`;

/**
 * Turns the words of a search into stems (decision 12): each word is stemmed as the documents
 * are; a stem the catalogue contains is used as it is, and one it does not contain is replaced
 * by the known stem a person most likely meant (`closestTerm`), so "sofaa" finds sofas and
 * "chiar" chairs. Each stem's stored counts come in the same round trip. Answers null when the
 * text holds no searchable word.
 */
export async function searchWordsFor(db: Executor, text: string): Promise<SearchedWords | null> {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return null;
  const { rows } = await db.execute<{ lexeme: string; known: boolean } & StemCounts>(sql`
    select s.lexeme, exists(select 1 from search_terms where term = s.lexeme) as known, ${stemCounts(sql`s.lexeme`)}
    from json_array_elements_text(${JSON.stringify(words)}::json) with ordinality as w(word, ord)
    cross join lateral unnest(to_tsvector('furniture_search', w.word)) as s
    order by w.ord, s.positions[1]`);
  if (rows.length === 0) return null;
  const counts = new Map<string, StemCounts>(rows.map((row) => [row.lexeme, row]));
  const misspelt = [...new Set(rows.filter((row) => !row.known).map((row) => row.lexeme))];
  const candidates = misspelt.length > 0 ? await correctionCandidates(db, misspelt) : [];
  for (const candidate of candidates) {
    counts.set(candidate.term, { anywhere: candidate.frequency, unnamed: candidate.unnamed, in_name: candidate.in_name, by_group: candidate.by_group });
  }
  // A word like nothing in the catalogue stays as it is, and so matches nothing.
  const stems = rows.map(({ lexeme, known }) => (known ? lexeme : (closestTerm(lexeme, candidates) ?? lexeme)));
  const stemCountsOf = stems.map((stem) => counts.get(stem)!);
  const fewest = (count: 'anywhere' | 'in_name') => Math.min(...stemCountsOf.map((held) => Number(held[count])));
  // Per group, the fewest listings holding one stem, recorded only where every stem is held.
  const fewestByGroup = new Map<string, WordGroup & { stems: number }>();
  for (const held of new Set(stemCountsOf)) {
    for (const [categoryId, condition, listings] of held.by_group) {
      const key = `${categoryId} ${condition}`;
      const group = fewestByGroup.get(key);
      if (group) fewestByGroup.set(key, { ...group, listings: Math.min(group.listings, listings), stems: group.stems + 1 });
      else fewestByGroup.set(key, { categoryId, condition, listings, stems: 1 });
    }
  }
  const everyStem = new Set(stemCountsOf).size;
  return {
    words: stems,
    fewest: { anywhere: fewest('anywhere'), inName: fewest('in_name') },
    othersAtMost: [...new Set(stemCountsOf)].reduce((total, held) => total + held.unnamed, 0),
    fewestByGroup: [...fewestByGroup.values()].filter((group) => group.stems === everyStem).map(({ stems: _stems, ...group }) => group),
  };
}

/**
 * The known stems that may be what the misspelt ones meant: those one edit away (looked up
 * exactly, so a swap such as "chiar", which shares few trigrams with "chair", is found), and those
 * most similar by trigrams (for two edits in a longer word), each with how many listings the
 * public sees hold it, from the word counts a trigger keeps (decision 27; PostgreSQL's statistics
 * of the documents cost more to plan than the rest of the search), and how many it names. Only
 * the small vocabulary and the counts are read, never the products.
 */
async function correctionCandidates(db: Executor, misspelt: string[]): Promise<(Candidate & Omit<StemCounts, 'anywhere'>)[]> {
  const oneEditAway = misspelt.flatMap(wordsOneEditAway);
  const { rows } = await db.execute<{ term: string } & StemCounts>(sql`
    with candidate as (
      select t.term from json_array_elements_text(${JSON.stringify(misspelt)}::json) as m(lexeme)
      cross join lateral (
        select term from search_terms where term % m.lexeme
        order by similarity(term, m.lexeme) desc, term limit ${TRIGRAM_CANDIDATES}
      ) as t
      union
      select term from search_terms where term in (select json_array_elements_text(${JSON.stringify(oneEditAway)}::json))
    )
    select c.term, ${stemCounts(sql`c.term`)}
    from candidate c`);
  return rows.map(({ term, anywhere, ...held }) => ({ term, frequency: anywhere, ...held }));
}

/** A location search resolved to more places than this reads the products' trigram index instead. */
const MAX_PLACES = 200;

/** Loosely: a similar word anywhere in the place (typos and accents forgiven), or a part of it. */
const placeMatches = (location: string, place: SQL) =>
  sql`(furniture_fold(${location}) <% ${place} or ${place} like '%' || furniture_fold(${location}) || '%')`;

/** A location search resolved to at most this many places finds its words there through their own index (`wordsInPlaces`). */
const PLACE_WORDS_UP_TO = 16;

/**
 * The known places a location search matches; how many listings the public sees there, when they
 * are at most PLACE_WORDS_UP_TO (`listings`, and `listingsOfOne` when one); and about how many the
 * whole catalogue holds (PostgreSQL's estimate, updated by ANALYZE; null before the first).
 */
export interface PlacesFound {
  places: string[];
  listings: number | null;
  listingsOfOne: number | null;
  catalogue: number | null;
}

/**
 * The known places a location search matches (decision 27), or null when there are more than
 * MAX_PLACES. Only the small table of places is read, and the stored counts of the places found
 * when they are few.
 */
async function placesMatching(db: Executor, location: string): Promise<PlacesFound | null> {
  // Planned once: the table is small, and read whole whatever the location.
  const rows = await executePrepared<{ place: string; listings: number | null; catalogue: number }>(
    db,
    sql`select ${searchPlaces.place} as place,
      case when count(*) over () <= ${sql.raw(String(PLACE_WORDS_UP_TO))} then (select coalesce(sum(${searchPlaceCounts.listings}), 0) from ${searchPlaceCounts}
        where ${searchPlaceCounts.place} = ${searchPlaces.place})::float8 end as listings,
      (select reltuples from pg_class where oid = 'products'::regclass)::float8 as catalogue
    from ${searchPlaces} where ${placeMatches(location, sql`${searchPlaces.place}`)} limit ${MAX_PLACES + 1}`,
  );
  if (rows.length > MAX_PLACES) return null;
  const few = rows.length <= PLACE_WORDS_UP_TO;
  const catalogue = rows[0]?.catalogue ?? 0;
  return {
    places: rows.map((row) => row.place),
    listings: few ? rows.reduce((total, row) => total + (row.listings ?? 0), 0) : null,
    listingsOfOne: rows.length === 1 ? rows[0]!.listings : null,
    catalogue: catalogue > 0 ? catalogue : null,
  };
}

/**
 * The listings in one of the places that hold every stem, from the index of each listing's stems
 * under its place (migration 0024): one short posting list per stem and place, where the words'
 * own posting lists intersected with a town's listings cost in proportion to the whole catalogue
 * (decision 27).
 * Null beyond PLACE_WORDS_UP_TO places, or none.
 */
function wordsInPlaces(words: SearchWords, places: string[]): SQL | null {
  if (places.length === 0 || places.length > PLACE_WORDS_UP_TO) return null;
  const stems = [...new Set(words)];
  const query = places.map((place) => `(${stems.map((stem) => quoteLexeme(`${place} ${stem}`)).join(' & ')})`).join(' | ');
  return sql`products_place_words(furniture_fold(${products.location}), ${products.searchVector}) @@ ${query}::tsquery`;
}

/**
 * Where the listings of a location search are: the known places it matches (see
 * placesMatching), read from a B-tree whose estimate is exact (the index's statistics), so a big
 * city is read in index or table order until a page is full, never as a trigram bitmap.
 */
function placeCondition(query: SearchQuery, places: string[] | null): SQL | undefined {
  if (!query.location) return undefined;
  const place = sql`furniture_fold(${products.location})`;
  return places ? inArray(place, places) : placeMatches(query.location, place);
}

/** The conditions of a search but its words, its place and the two that facets count by (condition and category). */
function filterConditions(query: SearchQuery, point: SearchPoint | null): SQL[] {
  const where: SQL[] = [publiclyVisible];
  if (point) where.push(withinRadius(point));
  if (query.bbox) where.push(withinBox(query.bbox));
  // A constant, not a parameter: a plan for any value would be costed for any stock state.
  if (query.inStock !== false) where.push(isAvailable);
  if (query.minPrice !== undefined) where.push(sql`${products.resalePrice} >= ${query.minPrice}::numeric`);
  if (query.maxPrice !== undefined) where.push(sql`${products.resalePrice} <= ${query.maxPrice}::numeric`);
  if (query.sellerVerified) {
    where.push(sql`exists (select 1 from ${users} seller where seller.id = ${products.sellerId} and seller.verified)`);
  }
  const space = fitsInSpaceSql({ widthCm: query.spaceWidth, depthCm: query.spaceDepth, heightCm: query.spaceHeight });
  if (space) where.push(space);
  if (query.doorWidth !== undefined && query.doorHeight !== undefined) {
    where.push(fitsThroughDoorwaySql({ widthCm: query.doorWidth, heightCm: query.doorHeight }));
  }
  return where;
}

function facetConditions(query: SearchQuery): { category?: SQL; condition?: SQL } {
  return {
    ...(query.categoryId ? { category: eq(products.categoryId, query.categoryId) } : {}),
    ...(query.condition?.length ? { condition: inArray(products.condition, query.condition) } : {}),
  };
}

/** A position in the (posted_at, id) order, as a cursor holds it: `posted_at|id`. */
const fromNewestPosition = (position: string) => {
  const [postedAt, id] = position.split('|');
  return sql`(${postedAt}::timestamptz, ${id}::uuid)`;
};

/** How a statement holds a cursor's position: as given, or `outOfPlannersSight` in one planned once. */
type Position = (value: SQL) => SQL;
const asGiven: Position = (value) => value;

/** Newest first by the (posted_at, id) columns given: a listing's own, or its entry in the name words' list. */
const newestBy = (postedAt: AnyPgColumn, id: AnyPgColumn) => ({
  key: sql`${postedAt}::text`,
  orderBy: [desc(postedAt), desc(id)],
  after: (key: string, afterId: string, position = asGiven) => sql`(${postedAt}, ${id}) < (${position(sql`${key}::timestamptz`)}, ${position(sql`${afterId}::uuid`)})`,
  /** At or after a position `posted_at|id`, newest first. */
  from: (position: string) => sql`(${postedAt}, ${id}) >= ${fromNewestPosition(position)}`,
  /** Past a position `posted_at|id`, newest first. */
  past: (position: string) => sql`(${postedAt}, ${id}) < ${fromNewestPosition(position)}`,
});

/** The sort key, the order and the keyset condition of each sort but relevance. */
function ordering(sort: Exclude<SearchSort, 'relevance'>, point: SearchPoint | null) {
  switch (sort) {
    case 'distance':
      // The query's schema asks a point of sort=distance.
      return nearestFirst(point!);
    case 'newest':
      return newestBy(products.postedAt, products.id);
    case 'price-asc':
      return {
        key: sql`${products.resalePrice}::text`,
        orderBy: [asc(products.resalePrice), asc(products.id)],
        after: (key: string, id: string, position = asGiven) => sql`(${products.resalePrice}, ${products.id}) > (${position(sql`${key}::numeric`)}, ${position(sql`${id}::uuid`)})`,
      };
    case 'price-desc':
      return {
        key: sql`${products.resalePrice}::text`,
        orderBy: [desc(products.resalePrice), desc(products.id)],
        after: (key: string, id: string, position = asGiven) => sql`(${products.resalePrice}, ${products.id}) < (${position(sql`${key}::numeric`)}, ${position(sql`${id}::uuid`)})`,
      };
  }
}

/**
 * How many of the newest listings named by every word are ranked by how well their names match
 * (decision 12): a first page and the row that says another follows, so a first page reads no
 * more rows than it did newest first.
 */
export const RANKED_NAMED = SEARCH_DEFAULT_LIMIT + 1;

/** A listing named by every word: read from the name's own index. */
const namedBy = (words: SearchWords) =>
  sql`to_tsvector('furniture_search'::regconfig, ${products.productName}) @@ ${tsqueryOf(words)}::tsquery`;

/**
 * A list of every listing under each stem, in (posted_at, id) order within a stem: the stems of
 * the names (migration 0019) or of the whole documents (migration 0021). The listings holding
 * several words are found by reading the list of the word the fewest listings hold, newest first,
 * and looking each entry up under the other words. PostgreSQL cannot estimate how often words go
 * together (it takes them as independent, and so expects almost none), so the lookups are a
 * subquery per entry rather than joins it would hash whole.
 */
type ListTable = PgTable & Record<'term' | 'postedAt' | 'productId', AnyPgColumn>;
interface WordList {
  table: ListTable;
  /** The list as the page reads it in order, joined to the listings as `listed`. */
  listed: ListTable;
  /** The list again, for the lookups. */
  other: ListTable;
  /** Which of the stems the fewest listings hold, from the counts stored with the list. */
  rarestOf: (stems: SQL) => SQL;
}

const nameWords: WordList = {
  table: searchNameWords,
  listed: alias(searchNameWords, 'listed'),
  other: alias(searchNameWords, 'other'),
  rarestOf: (stems) => sql`(select ${searchNameWordCounts.term} from ${searchNameWordCounts} where ${searchNameWordCounts.term} = any(${stems})
    order by ${searchNameWordCounts.listings}, ${searchNameWordCounts.term} limit 1)`,
};

const documentWords: WordList = {
  table: searchDocumentWords,
  listed: alias(searchDocumentWords, 'listed'),
  other: alias(searchDocumentWords, 'other'),
  rarestOf: (stems) => sql`(select ${searchWordCounts.term} from ${searchWordCounts} where ${searchWordCounts.term} = any(${stems})
    group by ${searchWordCounts.term} order by sum(${searchWordCounts.listings}), ${searchWordCounts.term} limit 1)`,
};

/** The listed entry is under the stem the fewest listings hold, and the listing is listed under every other stem. */
function listedUnderEvery({ table, listed, other, rarestOf }: WordList, stems: string[]): SQL {
  if (stems.length === 1) return sql`${listed.term} = ${stems[0]}`;
  const everyStem = sql`array[${sql.join(
    stems.map((stem) => sql`${stem}`),
    sql`, `,
  )}]::text[]`;
  const listedUnderOthers = sql`(select count(*) from ${table} as ${other}
    where ${other.term} = any(array_remove(${everyStem}, ${listed.term}))
    and ${other.postedAt} = ${listed.postedAt} and ${other.productId} = ${listed.productId})`;
  // "At least", never more: PostgreSQL guesses a third of the entries pass (for "equals", one in
  // 200), which keeps its estimate of a page's cost near what the scan reads (else, on a server
  // with JIT, it compiles the query for longer than the scan takes).
  return sql`${listed.term} = ${rarestOf(everyStem)} and ${listedUnderOthers} >= ${stems.length - 1}`;
}

/**
 * How well a name matches the words: cover density (the words close together and in the order
 * typed score higher), divided by the name's length in words (so "Oak chair" comes before
 * "Rustic oak dining chair with cushion"). A real, printed and compared exactly in cursors.
 */
const nameRank = (words: SearchWords) =>
  sql`ts_rank_cd(to_tsvector('furniture_search'::regconfig, ${products.productName}), ${tsqueryOf(words)}::tsquery, 2)`;

/**
 * While the rarest of the words names at most this many listings, the listings named by them all
 * are collected from the name index and sorted (`gathered`); beyond, they are read through the
 * rarest word's list (listedUnderEvery), which reads every entry of that word when the words
 * seldom go together. (Scanning the listings newest first and parsing each name reads many
 * listings for each one a common word names.)
 */
export const NAME_INDEX_UP_TO = 1_000;

/**
 * How a statement finds the listings holding every stem, in their names or anywhere: through a
 * list read newest first (`through`), or by testing each listing (`test`), the matches then
 * collected from the text indexes and sorted when few (`gather`, GATHER_UP_TO), else found by an
 * index scan in the page's order.
 */
interface WordsMatch {
  stems: string[];
  through: WordList | null;
  test: SQL;
  gather: boolean;
}

/** Newest first by a list's entries: the same positions as the listings', in an order an index gives. */
const newestThrough = ({ listed }: WordList) => newestBy(listed.postedAt, listed.productId);

/**
 * The listings holding every word anywhere (weight A of the document is the name, so the listings
 * named by the words are told apart without parsing the name again): through the document words'
 * list when a page reads newest first, else tested listing by listing (an order by price, or few
 * matches).
 */
function heldAnywhere(words: SearchWords, gathering: Gathering, newestFirst: boolean): WordsMatch {
  const through = !gathering.all && !gathering.placeWalk.anywhere && newestFirst ? documentWords : null;
  return { stems: [...new Set(words)], through, test: gathering.found ?? matchesAnywhere(words), gather: gathering.all };
}

/**
 * While a search's words match at most this many listings, its pages collect every match from the
 * text indexes and sort them, instead of scanning the listings in the page's order until it is
 * full. PostgreSQL cannot tell how rare a word is in a name, nor how seldom two common words go
 * together, so it scans: a town's name in no listing's name, or two common words seldom together,
 * read the whole table.
 */
export const GATHER_UP_TO = FACET_COUNT_LIMIT;

/** Which of a search's statements collect and sort their matches (GATHER_UP_TO): those of the named listings, and the others. */
interface Gathering {
  named: boolean;
  all: boolean;
  /**
   * What finds every match, the place included, from a short list: the ids the first page's
   * facets counted when they were every match, or else the words in the places asked for
   * (`wordsInPlaces`) when their matches are few. Its statements then read those listings,
   * instead of intersecting the words' indexes (and a place's) again.
   */
  found?: SQL;
  /**
   * The search is in one place with fewer listings than the rarest word's list, of names
   * (`named`) or of whole documents (`anywhere`): a page newest first reads that place's listings
   * in order (`products_place_posted_idx`) and tests each for the words, instead of reading the
   * list and dropping the listings of every other place.
   */
  placeWalk: { named: boolean; anywhere: boolean };
  /**
   * In a search in a few places whose matches are read in the page's order, what its other
   * matches (the third tier of relevance) are counted and collected from when they are few: the place words' test
   * (`wordsInPlaces`) and the page's filters but the place, which that index already holds.
   */
  othersInPlace?: { test: SQL; filters: (SQL | undefined)[] };
  /** The stored counts show that every listing holding a word names it: relevance's third tier is empty. */
  noOthers: boolean;
}

/** The matches the first page's facets counted, by their primary key. */
const amongThose = (among: string[]) => sql`${products.id} = any(${sql.param(among)}::uuid[])`;

/**
 * An order no index gives (every listing's price times zero, then the page's own order): PostgreSQL
 * then collects the matches from the indexes that find them and sorts them, instead of scanning an
 * index in the page's order. The same rows in the same order, another plan.
 */
const gathered = (order: SQL[]) => [sql`${products.resalePrice} * 0`, ...order];

/** The rows of a page: `where` holds and the listings hold the words as `match` says, in the order and after the position given. */
type PageQuery = (where: (SQL | undefined)[], order: SQL[], key: SQL, rows: number, match?: WordsMatch) => Promise<(ProductRecord & { sortKey: string })[]>;

/**
 * A page by relevance (decisions 12 and 27), in three tiers:
 *  1. the newest RANKED_NAMED listings named by every word, best named first (`nameRank`), then
 *     newest first;
 *  2. the older listings named by every word, newest first;
 *  3. the other matches (the words in the category, location or description), newest first;
 *     none looked for when the stored word counts show every listing holding a word names it.
 * The first page fixes where the ranked tier ends (the (posted_at, id) of its oldest listing, or
 * none when every named listing is in it) and the cursor carries it, so listings added while
 * someone pages can only join the ranked tier, never shift the others. A cursor key is
 * `tier|...|posted_at`. The ranked tier reads at most RANKED_NAMED rows a page; the others are
 * keyset index scans of the (posted_at, id) order, or bitmaps of their matches when few; a page
 * that empties one tier goes on with the next. So no search ranks every match, and page 200 costs
 * what page 1 does.
 */
async function relevancePage(
  db: Executor,
  pageQuery: PageQuery,
  filters: (SQL | undefined)[],
  words: SearchWords | null,
  after: Cursor | null,
  rows: number,
  gathering: Gathering,
): Promise<{ rows: Awaited<ReturnType<PageQuery>>; rankedUntil: string | null; othersFew: boolean }> {
  const newest = newestBy(products.postedAt, products.id);
  // Without a searchable word (q held none) everything found is one tier, newest first.
  if (!words) {
    const position = after ? [newest.after(after.key.slice(2), after.id)] : [];
    return { rows: await pageQuery([...filters, ...position], newest.orderBy, sql`'3|' || ${newest.key}`, rows), rankedUntil: null, othersFew: false };
  }
  const afterTier = after ? Number(after.key[0]) : 1;
  const stems = [...new Set(words)];
  // Few named listings are collected from the name index; many are found through the list, or in
  // the one place read in order. Among the matches counted, and in a place's listings, the named ones are those
  // whose name (weight A of the document) holds every word; filtered from the document, not read
  // from its index, which PostgreSQL would otherwise AND with the ids (intersecting the words'
  // posting lists once more), nor by parsing each name.
  const namedInDocument = sql`ts_filter(${products.searchVector}, '{a}') @@ ${tsqueryOf(words)}::tsquery`;
  const placeWalked = !gathering.named && gathering.placeWalk.named;
  // In a place read in order, the words of weight A, tested `is true`: PostgreSQL estimates how
  // many listings pass as it does for the words themselves, yet cannot AND the words' index in. (It
  // cannot estimate `ts_filter`, takes it for rare, and deep in a place collected and sorted every
  // listing left instead of reading in order.)
  const namedInPlace = sql`(${products.searchVector} @@ ${tsqueryOf(words, 'A')}::tsquery) is true`;
  const namedTest = gathering.found ? and(gathering.found, namedInDocument)! : placeWalked ? namedInPlace : namedBy(stems);
  const namedPieces: WordsMatch = { stems, through: gathering.named || placeWalked ? null : nameWords, test: namedTest, gather: gathering.named };
  const named = namedPieces.through ? newestThrough(namedPieces.through) : newest;
  const rank = nameRank(words);
  const rankedKey = sql`'1|' || ${rank}::text || '|' || ${named.key}`;
  const found: Awaited<ReturnType<PageQuery>> = [];
  let rankedUntil = after?.rankedUntil ?? null;
  if (!after) {
    // The first page reads the ranked tier whole, newest first, in one scan, and ranks it here
    // (a stable sort: equal ranks stay newest first, as the SQL order of later pages has them).
    const ranked = await pageQuery(filters, named.orderBy, rankedKey, RANKED_NAMED, namedPieces);
    const oldest = ranked.at(-1);
    rankedUntil = ranked.length === RANKED_NAMED && oldest ? `${oldest.sortKey.split('|')[2]}|${oldest.id}` : null;
    const rankOf = (row: (typeof ranked)[number]) => Number(row.sortKey.split('|')[1]);
    found.push(...ranked.sort((a, b) => rankOf(b) - rankOf(a)).slice(0, rows));
  } else if (afterTier === 1) {
    const [, afterRank, afterPosted] = after.key.split('|');
    const where = [
      ...filters,
      rankedUntil ? named.from(rankedUntil) : undefined,
      sql`(${rank}, ${products.postedAt}, ${products.id}) < (${afterRank}::real, ${afterPosted}::timestamptz, ${after.id}::uuid)`,
    ];
    found.push(...(await pageQuery(where, [desc(rank), ...named.orderBy], rankedKey, rows, namedPieces)));
  }
  if (afterTier <= 2 && rankedUntil && found.length < rows) {
    // Past the ranked tier's end, or past the cursor, which is past it: one bound, not both. Given
    // two, PostgreSQL starts the index scan at the first and reads every entry down to the cursor,
    // so each page cost more than the one before.
    const position = after && afterTier === 2 ? named.after(after.key.slice(2), after.id) : named.past(rankedUntil);
    found.push(...(await pageQuery([...filters, position], named.orderBy, sql`'2|' || ${named.key}`, rows - found.length, namedPieces)));
  }
  let othersFew = false;
  if (found.length < rows && !gathering.noOthers) {
    const notNamed = sql`not ${products.searchVector} @@ ${tsqueryOf(words, 'A')}::tsquery`;
    // In a few places, the page that reaches the other matches counts them first, from the place
    // words' index: few of them (none, for a word nearly every match names) are collected from it,
    // on this page and the later ones (the cursor's `few`), instead of reading every older listing
    // of the place, or every older entry of the word's list, to find them.
    const inPlace = afterTier < 3 ? gathering.othersInPlace : undefined;
    const counted = inPlace ? await countUpTo(db, [...inPlace.filters, inPlace.test, notNamed], GATHER_UP_TO + 1) : null;
    othersFew = counted !== null && counted <= GATHER_UP_TO;
    if (counted !== 0) {
      const gatheredInPlace = othersFew && inPlace ? inPlace : null;
      const anywhere: WordsMatch = gatheredInPlace ? { stems, through: null, test: gatheredInPlace.test, gather: true } : heldAnywhere(words, gathering, true);
      const other = anywhere.through ? newestThrough(anywhere.through) : newest;
      const where = [...(gatheredInPlace?.filters ?? filters), notNamed];
      if (after && afterTier === 3) where.push(other.after(after.key.slice(2), after.id));
      found.push(...(await pageQuery(where, other.orderBy, sql`'3|' || ${other.key}`, rows - found.length, anywhere)));
    }
  }
  return { rows: found, rankedUntil, othersFew };
}

/** How many listings `where` holds, counted up to `atMost` and no further. */
async function countUpTo(db: Executor, where: (SQL | undefined)[], atMost: number): Promise<number> {
  const held = db.select({ id: products.id }).from(products).where(and(...where)).limit(atMost).as('held');
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(held);
  return row?.count ?? 0;
}

/** How many matches of a search have each condition in each category (decision 27). */
export interface FacetGroup {
  condition: Condition;
  categoryId: string;
  count: number;
}

/**
 * A search's facet groups, and whether they hold every match (else the first FACET_COUNT_LIMIT + 1
 * found), or are `estimated` from the fixed sample (`sampledFacetGroups`: scaled, not rounded).
 */
export interface FacetCount {
  groups: FacetGroup[];
  complete: boolean;
  estimated?: boolean;
}

/**
 * Where a search's facet groups come from: `count` reads them from the catalogue; a cache may
 * answer those it counted before for the same `key` instead (see facet-counts.ts).
 */
export type FacetGroupsOf = (key: string, count: () => Promise<FacetCount>) => Promise<FacetCount>;

/** Where a search's stems come from: `read` reads them; a cache may answer those read before for the same text (facet-counts.ts). */
export type WordsOf = (text: string, read: () => Promise<SearchedWords | null>) => Promise<SearchedWords | null>;

/** Where the places a location matches come from: `read` reads them; a cache may answer those read before for the same location. */
export type PlacesOf = (location: string, read: () => Promise<PlacesFound | null>) => Promise<PlacesFound | null>;

/** What a search may answer from what was read for an earlier one (facet-counts.ts); each read afresh when not given. */
export interface SearchKeepers {
  facetGroupsOf?: FacetGroupsOf;
  wordsOf?: WordsOf;
  placesOf?: PlacesOf;
}

const readEveryTime = <T>(_key: string, read: () => Promise<T>) => read();

/**
 * The matches by condition and category, at most FACET_COUNT_LIMIT + 1 of them. The category and
 * condition filters are left out (each facet ignores its own), so every search that differs only
 * by them, its sort or its page has the same groups: what `facetKey` names. With `naming`, when
 * they are every match, their ids too (`matches`), for the page of the very search that counted
 * them; without, a count that reads no listing's id may be read from an index alone.
 */
async function countFacetGroups(db: Executor, besides: SQL[], naming: boolean): Promise<FacetCount & { matches: string[] | null }> {
  // The id is read only when aggregated: PostgreSQL drops a subquery's unused columns, so without
  // `naming` the count still reads no more than an index carries (search-at-scale.test.ts).
  const matched = db
    .select({ id: products.id, condition: products.condition, categoryId: products.categoryId })
    .from(products)
    .where(and(...besides))
    .limit(FACET_COUNT_LIMIT + 1)
    .as('matched');
  const ids = naming ? sql<string[]>`array_agg(${matched.id}::text)` : sql<null>`null`;
  const counted = await db
    .select({ condition: matched.condition, categoryId: matched.categoryId, count: sql<number>`count(*)::int`, ids })
    .from(matched)
    .groupBy(matched.condition, matched.categoryId);
  const complete = counted.reduce((total, group) => total + group.count, 0) <= FACET_COUNT_LIMIT;
  return {
    groups: counted.map(({ ids: _ids, ...group }) => group),
    complete,
    matches: naming && complete ? counted.flatMap((group) => group.ids ?? []) : null,
  };
}

/**
 * The fixed sample of listings (migration 0020, whose partial index this repeats): those whose id
 * ends in a byte below SAMPLE_BYTES_BELOW. Ids are random, so it holds SAMPLE_SHARE of any search.
 * A constant in the statement, not a parameter, so that PostgreSQL sees the index's predicate.
 */
const SAMPLE_BYTES_BELOW = 3;
const SAMPLE_SHARE = SAMPLE_BYTES_BELOW / 256;
const inSample = sql`get_byte(uuid_send(${products.id}), 15) < ${sql.raw(String(SAMPLE_BYTES_BELOW))}`;

/**
 * A search each of whose stems at least this many listings hold (the stored counts say so) counts
 * its facets on the sample (`sampledFacetGroups`): the sample then holds about 230 listings of
 * the rarest, so a filter leaving a tenth of them still leaves 20 or more to scale, and the full
 * count's bitmap of every listing holding a stem is what costs (decision 27). The app's setting
 * `facetSampleFrom` replaces it (tests lower it).
 */
export const FACET_SAMPLE_FROM = 20_000;

/** Below this many matches in the sample, an estimate would be too rough (about ±18 % at 30): the matches are counted. */
const SAMPLED_AT_LEAST = 30;

/**
 * Facet groups of a broad search estimated from the fixed sample: each group's matches in the
 * sample scaled by its share, and at most what the stored counts of each stem hold for that
 * category and condition (migration 0017), which also say which groups hold none at all: those
 * where a stem is held by no listing ("walnut dresser" in sofas). A group every stem is held in
 * but the sample misses counts 0 ("a few"). Null when the sample holds
 * fewer than SAMPLED_AT_LEAST matches: two common words seldom together, or filters that leave
 * few, are then counted as any search, so that a first page learns from complete counts that its
 * matches are few (`gathering`); a sample never says "few".
 *
 * The place is tested on the sample's listings holding the words and passing the other filters,
 * not read from its index: a big city's places hold a third of the catalogue, and PostgreSQL
 * intersected all their listings with the sample's, several times the cost of testing the sample.
 */
async function sampledFacetGroups(db: Executor, filters: SQL[], place: SQL | undefined, words: SearchWords, availableOnly: boolean): Promise<FacetCount | null> {
  const stems = [...new Set(words)];
  // OFFSET 0 keeps PostgreSQL from moving the place into the subquery, and so into its choice of
  // indexes; named as the table, the subquery is what the place's column refers to.
  const sample = sql`(select * from ${products} where ${and(...filters, matchesAnywhere(words), inSample)} offset 0) as ${products}`;
  const { rows } = await db.execute<{ condition: Condition; categoryId: string; seen: number; held: number | null }>(sql`
    select condition, category_id as "categoryId", coalesce(sampled.seen, 0) as seen, kept.held
    from (
      select ${products.condition} as condition, ${products.categoryId} as category_id, count(*)::int as seen
      from ${sample}${place ? sql` where ${place}` : sql``} group by 1, 2
    ) as sampled
    full join (
      select condition, category_id, min(held) as held from (
        select ${searchWordCounts.condition} as condition, ${searchWordCounts.categoryId} as category_id, sum(${searchWordCounts.listings})::int as held
        from ${searchWordCounts}
        where ${and(inArray(searchWordCounts.term, stems), availableOnly ? eq(searchWordCounts.inStock, 'available') : undefined)}
        group by ${searchWordCounts.term}, 1, 2 having sum(${searchWordCounts.listings}) > 0
      ) as per_stem group by 1, 2 having count(*) = ${stems.length}
    ) as kept using (condition, category_id)`);
  if (rows.reduce((total, row) => total + row.seen, 0) < SAMPLED_AT_LEAST) return null;
  const groups = rows.map(({ condition, categoryId, seen, held }) => ({ condition, categoryId, count: Math.min(seen / SAMPLE_SHARE, held ?? Infinity) }));
  return { groups, complete: false, estimated: true };
}

/**
 * Whether the fixed sample may hold SAMPLED_AT_LEAST of a broad search's matches. Without a place
 * it does: FACET_SAMPLE_FROM listings hold its rarest word, about 230 of them in the sample. In a
 * few places it holds about their share of them, if the words are spread over the places as the
 * listings are: a town's share of a common word is often too few to estimate from (`listings`
 * in PlacesFound against the whole catalogue). Those matches are then counted first, and the
 * sample asked only when they are more than a count reads; so a word concentrated in one town (more
 * there than its share) is still estimated, one count later.
 */
function sampleMayHoldEnough(searched: SearchedWords, placesFound: PlacesFound | null): boolean {
  if (!placesFound?.catalogue || placesFound.listings === null) return true;
  const share = Math.min(1, placesFound.listings / placesFound.catalogue);
  return searched.fewest.anywhere * share * SAMPLE_SHARE >= SAMPLED_AT_LEAST;
}

/** Stored counts a search's facet groups are read from: one stem's, or the places' of a search by place. */
type KeptCounts = { table: typeof searchWordCounts; keyed: SQL } | { table: typeof searchPlaceCounts; keyed: SQL };

/**
 * The stored counts that hold a search's facet groups (decision 27): those of its one searchable
 * word, or of the places its location resolves to, and no filter but the facets' own and the
 * stock state, which the counts are grouped by. Any other parameter, including one added later,
 * leaves the counting to the listings.
 */
function keptCountsOf(query: SearchQuery, words: SearchWords | null, places: string[] | null): KeptCounts | null {
  const { q: _q, location: _location, categoryId: _category, condition: _condition, inStock: _inStock, sort: _sort, cursor: _cursor, limit: _limit, ...filters } = query;
  if (Object.values(filters).some((value) => value !== undefined)) return null;
  if (words && !query.location && new Set(words).size === 1) return { table: searchWordCounts, keyed: eq(searchWordCounts.term, words[0]!) };
  if (places && !query.q) return { table: searchPlaceCounts, keyed: inArray(searchPlaceCounts.place, places) };
  return null;
}

/**
 * A search's groups from the counts a trigger keeps per stem or place, category, condition and
 * stock state (migrations 0017 and 0022): every match, whatever their number, without reading a
 * listing.
 */
async function keptFacetGroups(db: Executor, { table, keyed }: KeptCounts, availableOnly: boolean): Promise<FacetCount> {
  const groups = await db
    .select({ condition: table.condition, categoryId: table.categoryId, count: sql<number>`sum(${table.listings})::int` })
    .from(table)
    .where(and(keyed, availableOnly ? eq(table.inStock, 'available') : undefined, gt(table.listings, 0)))
    .groupBy(table.condition, table.categoryId);
  return { groups, complete: true };
}

/**
 * Whether a search's pages are planned once for any value of their parameters (decision 30):
 * browsing, a category, conditions or the stock state, sorted by date or price, page after page,
 * which an index reads in the page's order whatever their values. Words, a place, a price range,
 * measurements, verified sellers, and any parameter added later, are planned for the values
 * asked: how many listings match them decides the plan (decision 27).
 */
function plannedForAnyValue(query: SearchQuery): boolean {
  const { categoryId: _category, condition: _condition, inStock: _inStock, sort: _sort, cursor: _cursor, limit: _limit, ...narrowing } = query;
  return searchSortOf(query) !== 'relevance' && Object.values(narrowing).every((value) => value === undefined);
}

/** What a search's facet groups depend on: every parameter but the facets' own, the sort and the page. */
export function facetKey(query: SearchQuery): string {
  const { categoryId: _category, condition: _condition, sort: _sort, cursor: _cursor, limit: _limit, ...rest } = query;
  return searchFingerprint(rest);
}

/**
 * Counts by condition and by category, each ignoring its own filter, so a count says how many
 * results choosing that value would leave. Exact when the groups hold every match; else they come
 * from the first FACET_COUNT_LIMIT found and are lower bounds, or are estimates from the sample,
 * rounded here (`estimated`).
 */
export function facetsOf(query: SearchQuery, { groups, complete, estimated = false }: FacetCount): Facets {
  const facets: Facets = {
    // An estimate names only the values that may have matches (a 0 among them: "a few").
    condition: estimated ? {} : Object.fromEntries(conditions.map((condition) => [condition, 0])),
    category: {},
    exact: complete,
    estimated,
  };
  for (const group of groups) {
    if (!query.categoryId || group.categoryId === query.categoryId) {
      facets.condition[group.condition] = (facets.condition[group.condition] ?? 0) + group.count;
    }
    if (!query.condition?.length || query.condition.includes(group.condition)) {
      facets.category[group.categoryId] = (facets.category[group.categoryId] ?? 0) + group.count;
    }
  }
  if (estimated) {
    for (const counts of [facets.condition, facets.category]) {
      for (const [value, count] of Object.entries(counts)) counts[value] = roundedEstimate(count);
    }
  }
  return facets;
}

export function searchSortOf(query: Pick<SearchQuery, 'sort' | 'q'>): SearchSort {
  return query.sort ?? (query.q ? 'relevance' : 'newest');
}

/**
 * One page of a catalogue search, with its next cursor and, on the first page, its facets, whose
 * groups `facetGroupsOf` may answer from those counted for an earlier search, as `wordsOf` its
 * stems from those read for the same words and `placesOf` its places from those read for the same
 * location.
 */
export async function searchCatalogue(
  db: Executor,
  query: SearchQuery,
  { facetGroupsOf = readEveryTime, wordsOf = readEveryTime, placesOf = readEveryTime }: SearchKeepers = {},
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
  const besidesPlace = filterConditions(query, point);
  const filters = place ? [...besidesPlace, place] : besidesPlace;
  const inPlaces = words && places ? wordsInPlaces(words, places) : null;
  // Relevance tiers match the words each in its own way; everything else matches them anywhere.
  const besides = inPlaces ? [...besidesPlace, inPlaces] : words ? [...filters, matchesAnywhere(words)] : filters;
  const { category, condition } = facetConditions(query);
  const kept = keptCountsOf(query, words, places);
  // Stored counts too go through the facet cache: one round trip fewer for a search asked again.
  const availableOnly = query.inStock !== false;
  /** Every match, when this very search counted them all for its facets (not when stored or cached counts answered them). */
  let counted: string[] | null = null;
  const countGroups = async (): Promise<FacetCount> => {
    if (kept) return keptFacetGroups(db, kept, availableOnly);
    // No group holds every word: the word counts alone show there is no match, whatever the filters.
    if (searched && heldAtMost(searched) === 0) return { groups: [], complete: true };
    const countMatches = async () => {
      const { matches, ...count } = await countFacetGroups(db, besides, searched !== null);
      counted = matches;
      return count;
    };
    if (!searched || searched.fewest.anywhere < facetSampleFrom) return countMatches();
    const sample = () => sampledFacetGroups(db, besidesPlace, place, searched.words, availableOnly);
    if (sampleMayHoldEnough(searched, placesFound)) return (await sample()) ?? countMatches();
    // Counted first; the sample only for more matches than a count reads.
    const count = await countMatches();
    return count.complete ? count : ((await sample()) ?? count);
  };
  const facetCount = after ? null : facetGroupsOf(facetKey(query), countGroups);
  // Awaited below, where a failure is thrown; meanwhile it must not count as unhandled.
  void facetCount?.catch(() => undefined);
  // Few matches are collected and sorted (GATHER_UP_TO): rare words say so from their stored counts (within the
  // category and conditions asked for: words seldom in them), common words that
  // seldom go together, or filters that leave few of them, from the first page's facets. When
  // either shows there is no match, no page is read.
  const gathering: Gathering = { named: false, all: false, placeWalk: { named: false, anywhere: false }, noOthers: false };
  // At most how many listings the page's filters leave hold every word.
  let held: number | null = null;
  if (searched) {
    held = heldAtMost(searched, query);
    gathering.all = held <= GATHER_UP_TO;
    if (!gathering.all && facetCount) {
      const { groups, complete } = await facetCount;
      // Every match was counted: the page's are those of the groups it asks for, and when this
      // search counted them, it reads them by id.
      if (complete) {
        const chosen = groups.filter((group) => (!query.categoryId || group.categoryId === query.categoryId) && (!query.condition?.length || query.condition.includes(group.condition)));
        held = chosen.reduce((total, group) => total + group.count, 0);
        gathering.all = held <= GATHER_UP_TO;
        if (gathering.all && counted) gathering.found = amongThose(counted);
      }
    }
    // Few matches in a few places are collected through the place words' index; the later pages of
    // a search whose first page counted few there too, or whose page reaching the third tier
    // counted few others (a forged cursor can only have a page collect what that index holds of its
    // words in its places).
    if (after?.few && inPlaces) gathering.all = true;
    if (gathering.all && inPlaces) gathering.found ??= inPlaces;
    gathering.named = gathering.all || searched.fewest.inName <= NAME_INDEX_UP_TO;
    gathering.noOthers = searched.othersAtMost === 0;
    const inOnePlace = placesFound?.listingsOfOne ?? null;
    if (inOnePlace !== null) gathering.placeWalk = { named: inOnePlace < searched.fewest.inName, anywhere: inOnePlace < searched.fewest.anywhere };
    if (inPlaces && !gathering.found) gathering.othersInPlace = { test: inPlaces, filters: [...besidesPlace, category, condition] };
  }
  // Planned once: a page of the usual size (its size in the text: a plan made for any number of
  // rows would be costed for a tenth of the table, and never chosen). Any other size is planned
  // as asked, so that the texts each connection keeps prepared stay few.
  const prepared = plannedForAnyValue(query) && limit === SEARCH_DEFAULT_LIMIT;
  const pageQuery: PageQuery = async (where, order, key, rows, match) => {
    const list = match?.through;
    // (Joined by id alone: PostgreSQL would take the posting time's equality as independent of the
    // id's and expect no row; the triggers keep the two the same.)
    const throughList = list ? sql` inner join ${list.table} as ${list.listed} on ${eq(list.listed.productId, products.id)}` : sql``;
    const holdsTheWords = match && (list ? listedUnderEvery(list, match.stems) : match.test);
    const orderBy = match?.gather ? gathered(order) : order;
    const statement = (size: SQL) =>
      sql`select ${productSelectList}, ${key} as "sortKey" from ${listedProductsFrom}${throughList} where ${and(...where, holdsTheWords)} order by ${sql.join(orderBy, sql`, `)} limit ${size}`;
    const found = prepared
      ? await executePrepared<Record<string, unknown> & { sortKey: string }>(db, statement(sql.raw(String(rows))))
      : (await db.execute<Record<string, unknown> & { sortKey: string }>(statement(sql`${rows}`))).rows;
    return found.map((row) => ({ ...productRecordOf(row), sortKey: row.sortKey }));
  };

  const pagePromise = async () => {
    // The stored counts are exact for what the public sees: when none holds every word, no listing is read.
    if (held === 0) return { rows: [], rankedUntil: null, othersFew: false };
    // Matches found by id or through the place words are in their place: its index would only be ANDed with them.
    const pageFilters = [...(gathering.found ? besidesPlace : filters), category, condition];
    if (sort === 'relevance') return relevancePage(db, pageQuery, pageFilters, words, after, limit + 1, gathering);
    const match = words ? heldAnywhere(words, gathering, sort === 'newest') : undefined;
    const order = match?.through ? newestThrough(match.through) : ordering(sort, point);
    const position = after ? order.after(after.key, after.id, prepared ? outOfPlannersSight : asGiven) : undefined;
    const rows = await pageQuery([...pageFilters, position], order.orderBy, order.key, limit + 1, match);
    return { rows, rankedUntil: null, othersFew: false };
  };
  const [{ rows, rankedUntil, othersFew }, facets] = await Promise.all([pagePromise(), facetCount?.then((count) => facetsOf(query, count)) ?? null]);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // Few others are collected from the next page on only when it starts among them: one starting
  // among the named listings reads in order, where collecting would read every match of the places.
  const few = inPlaces !== null && (gathering.all || (othersFew && last?.sortKey.startsWith('3|') === true));
  const nextCursor = rows.length > limit && last ? encodeCursor({ sort, key: last.sortKey, id: last.id, rankedUntil, few }, fingerprint) : null;
  return { rows: page, nextCursor, facets, point };
}
