import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { type Condition, conditions, FACET_COUNT_LIMIT, roundedEstimate, type Facets, type SearchQuery } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { products, searchPlaceCounts, searchWordCounts } from '../db/schema/index.ts';
import { searchFingerprint } from './cursor.ts';
import { matchesAnywhere, type PlacesFound, type SearchedWords, type SearchWords } from './query.ts';
import { chooseFacetSource } from './shape.ts';
import { SAMPLE_BYTES_BELOW, SAMPLE_SHARE, SAMPLED_AT_LEAST } from './thresholds.ts';

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

/** In the fixed sample: a constant in the statement, not a parameter, so that PostgreSQL sees the index's predicate. */
const inSample = sql`get_byte(uuid_send(${products.id}), 15) < ${sql.raw(String(SAMPLE_BYTES_BELOW))}`;

/**
 * Facet groups of a broad search estimated from the fixed sample: each group's matches in the
 * sample scaled by its share, and at most what the stored counts of each stem hold for that
 * category and condition (migration 0017), which also say which groups hold none at all: those
 * where a stem is held by no listing ("walnut dresser" in sofas). A group every stem is held in
 * but the sample misses counts 0 ("a few"). Null when the sample holds
 * fewer than SAMPLED_AT_LEAST matches: two common words seldom together, or filters that leave
 * few, are then counted as any search, so that a first page learns from complete counts that its
 * matches are few (shape.ts); a sample never says "few".
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
    select condition, category_id as "categoryId", coalesce(sampled.seen, 0) as seen, stored.held
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
    ) as stored using (condition, category_id)`);
  if (rows.reduce((total, row) => total + row.seen, 0) < SAMPLED_AT_LEAST) return null;
  const groups = rows.map(({ condition, categoryId, seen, held }) => ({ condition, categoryId, count: Math.min(seen / SAMPLE_SHARE, held ?? Infinity) }));
  return { groups, complete: false, estimated: true };
}

/** Stored counts a search's facet groups are read from: one stem's, or the places' of a search by place. */
type StoredCounts = { table: typeof searchWordCounts; keyed: SQL } | { table: typeof searchPlaceCounts; keyed: SQL };

/**
 * The stored counts that hold a search's facet groups (decision 27): those of its one searchable
 * word, or of the places its location resolves to, and no filter but the facets' own and the
 * stock state, which the counts are grouped by. Any other parameter, including one added later,
 * leaves the counting to the listings.
 */
function storedCountsOf(query: SearchQuery, words: SearchWords | null, places: string[] | null): StoredCounts | null {
  const { q: _q, location: _location, categoryId: _category, condition: _condition, inStock: _inStock, sort: _sort, cursor: _cursor, limit: _limit, ...filters } = query;
  if (Object.values(filters).some((value) => value !== undefined)) return null;
  if (words && !query.location && new Set(words).size === 1) return { table: searchWordCounts, keyed: eq(searchWordCounts.term, words[0]!) };
  if (places && !query.q) return { table: searchPlaceCounts, keyed: inArray(searchPlaceCounts.place, places) };
  return null;
}

/**
 * A search's groups from the counts a trigger stores per stem or place, category, condition and
 * stock state (migrations 0017 and 0022): every match, whatever their number, without reading a
 * listing.
 */
async function storedFacetGroups(db: Executor, { table, keyed }: StoredCounts, availableOnly: boolean): Promise<FacetCount> {
  const groups = await db
    .select({ condition: table.condition, categoryId: table.categoryId, count: sql<number>`sum(${table.listings})::int` })
    .from(table)
    .where(and(keyed, availableOnly ? eq(table.inStock, 'available') : undefined, gt(table.listings, 0)))
    .groupBy(table.condition, table.categoryId);
  return { groups, complete: true };
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
/** What a search's facet groups are counted from. */
export interface FacetInputs {
  query: SearchQuery;
  searched: SearchedWords | null;
  placesFound: PlacesFound | null;
  /** Every condition of the search but the facets' own (category and condition), words included. */
  besides: SQL[];
  /** The same without the words and the place. */
  besidesPlace: SQL[];
  place: SQL | undefined;
  sampleFrom: number;
}

/**
 * A search's facet groups, from where `chooseFacetSource` says. When this search counted every
 * match, their ids are handed to `onCounted`, for its own page to read them by id.
 */
export async function countFacets(db: Executor, inputs: FacetInputs, onCounted: (ids: string[] | null) => void): Promise<FacetCount> {
  const { query, searched, placesFound, besides, besidesPlace, place, sampleFrom } = inputs;
  const stored = storedCountsOf(query, searched?.words ?? null, placesFound?.places ?? null);
  const availableOnly = query.inStock !== false;
  const countMatches = async () => {
    const { matches, ...count } = await countFacetGroups(db, besides, searched !== null);
    onCounted(matches);
    return count;
  };
  const sample = () => sampledFacetGroups(db, besidesPlace, place, searched!.words, availableOnly);
  switch (chooseFacetSource({ storedCounts: stored !== null, words: searched, placesFound, sampleFrom })) {
    case 'stored counts':
      return storedFacetGroups(db, stored!, availableOnly);
    case 'no match':
      return { groups: [], complete: true };
    case 'count':
      return countMatches();
    case 'sample, else count':
      return (await sample()) ?? countMatches();
    case 'count, then sample': {
      const count = await countMatches();
      return count.complete ? count : ((await sample()) ?? count);
    }
  }
}
