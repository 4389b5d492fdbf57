import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Condition, SearchQuery, SearchSort } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { executePrepared } from '../db/prepared.ts';
import { products, searchNameWordCounts, searchPlaceCounts, searchPlaces, searchWordCounts, users } from '../db/schema/index.ts';
import { fitsInSpaceSql, fitsThroughDoorwaySql } from '../products/fit-geometry.ts';
import { isAvailable, publiclyVisible } from '../products/product-repository.ts';
import { withinBox } from './distance.ts';
import { closestTerm, wordsOneEditAway, type Candidate } from './spelling.ts';
import { MAX_PLACES, MAX_SEARCH_WORDS, PLACE_WORDS_UP_TO, TRIGRAM_CANDIDATES } from './thresholds.ts';

/**
 * What a search asks, read: its words as the catalogue's stems (misspelt ones corrected) with the
 * counts the triggers store for them, the places its location names, and its filters as SQL.
 */

/** Quotes a lexeme for tsquery input: inside quotes, a backslash escapes the next character. */
export const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/['\\]/g, '\\$&')}'`;

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
export const matchesAnywhere = (words: SearchWords) => sql`${products.searchVector} @@ ${tsqueryOf(words)}::tsquery`;

/** A search's stems, and the counts it plans its pages by (see shape.ts). */
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
export interface WordGroup {
  categoryId: string;
  condition: Condition;
  listings: number;
}

/**
 * At most how many listings hold every word of a search among those of the category and
 * conditions asked for (either left out: any), from the word counts alone.
 */
export function heldAtMost({ fewestByGroup }: Pick<SearchedWords, 'fewestByGroup'>, within: Pick<SearchQuery, 'categoryId' | 'condition'> = {}): number {
  return fewestByGroup
    .filter((group) => (!within.categoryId || group.categoryId === within.categoryId) && (!within.condition?.length || within.condition.includes(group.condition)))
    .reduce((total, group) => total + group.listings, 0);
}

/**
 * How many listings hold a stem anywhere, how many of them leave it out of their names
 * (`unnamed`), by group (category and condition), and in their names, as the counts triggers store
 * have them.
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

/** Loosely: a similar word anywhere in the place (typos and accents forgiven), or a part of it. */
const placeMatches = (location: string, place: SQL) =>
  sql`(furniture_fold(${location}) <% ${place} or ${place} like '%' || furniture_fold(${location}) || '%')`;

/**
 * The known places a location search matches; how many listings the public sees there, when they
 * are at most PLACE_WORDS_UP_TO (`listings`); and about how many the whole catalogue holds
 * (PostgreSQL's estimate, updated by ANALYZE; null before the first).
 */
export interface PlacesFound {
  places: string[];
  listings: number | null;
  catalogue: number | null;
}

/**
 * The known places a location search matches (decision 27), or null when there are more than
 * MAX_PLACES. Only the small table of places is read, and the stored counts of the places found
 * when they are few.
 */
export async function placesMatching(db: Executor, location: string): Promise<PlacesFound | null> {
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
export function wordsInPlaces(words: SearchWords, places: string[]): SQL | null {
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
export function placeCondition(query: SearchQuery, places: string[] | null): SQL | undefined {
  if (!query.location) return undefined;
  const place = sql`furniture_fold(${products.location})`;
  return places ? inArray(place, places) : placeMatches(query.location, place);
}

/**
 * The conditions of a search but its words, its place and the two that facets count by (condition
 * and category); `radius`, the circle's (`withinRadius`), when it is near a point.
 */
export function filterConditions(query: SearchQuery, radius: SQL | undefined): SQL[] {
  const where: SQL[] = [publiclyVisible];
  if (radius) where.push(radius);
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

export function facetConditions(query: SearchQuery): { category?: SQL; condition?: SQL } {
  return {
    ...(query.categoryId ? { category: eq(products.categoryId, query.categoryId) } : {}),
    ...(query.condition?.length ? { condition: inArray(products.condition, query.condition) } : {}),
  };
}

export function searchSortOf(query: Pick<SearchQuery, 'sort' | 'q'>): SearchSort {
  return query.sort ?? (query.q ? 'relevance' : 'newest');
}
