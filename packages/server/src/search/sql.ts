import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { SearchSort } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { executePrepared, outOfPlannersSight } from '../db/prepared.ts';
import { products, searchDocumentWords, searchNameWordCounts, searchNameWords, searchWordCounts } from '../db/schema/index.ts';
import { listedProductsFrom, productRecordOf, productSelectList, type ProductRecord } from '../products/product-repository.ts';
import type { Cursor } from './cursor.ts';
import { nearestFirst, placeByPlace, type SearchPoint } from './distance.ts';
import { matchesAnywhere, tsqueryOf, type SearchWords } from './query.ts';
import type { PageShape } from './shape.ts';
import { COLLECT_UP_TO, RANKED_BY_NAME } from './thresholds.ts';

/**
 * The statements of a search's page: the order of each sort and its keyset condition, the lists
 * of words a page reads newest first, the three tiers of relevance, and one page's statement as
 * its shape (shape.ts) says.
 */

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
 * How a statement finds the listings holding every stem, in their names or anywhere: through a
 * list read newest first (`through`), or by testing each listing (`test`), the matches then
 * collected from the text indexes and sorted when few (`collect`, COLLECT_UP_TO), else found by an
 * index scan in the page's order.
 */
interface WordsMatch {
  stems: string[];
  through: WordList | null;
  test: SQL;
  collect: boolean;
}

/** Newest first by a list's entries: the same positions as the listings', in an order an index gives. */
const newestThrough = ({ listed }: WordList) => newestBy(listed.postedAt, listed.productId);

/**
 * The listings holding every word anywhere (weight A of the document is the name, so the listings
 * named by the words are told apart without parsing the name again): through the document words'
 * list when a page reads newest first, else tested listing by listing (an order by price, or few
 * matches).
 */
function heldAnywhere(words: SearchWords, { shape, found }: PageMatches, newestFirst: boolean): WordsMatch {
  const through = !shape.collectAll && newestFirst ? documentWords : null;
  return { stems: [...new Set(words)], through, test: found ?? matchesAnywhere(words), collect: shape.collectAll };
}

/**
 * A search's page shape (shape.ts) with the SQL its choices name: what finds every match from a
 * short list (`found`: the ids the first page's facets counted, or the words in the places asked
 * for), and, in a search in a few places whose matches are read in the page's order, what its other
 * matches (relevance's third tier) are counted and collected from when they are few: the place
 * words' test and the page's filters but the place, which that index already holds.
 */
export interface PageMatches {
  shape: PageShape;
  found?: SQL;
  othersInPlace?: { test: SQL; filters: (SQL | undefined)[] };
}

/** The matches the first page's facets counted, by their primary key. */
export const amongThose = (among: string[]) => sql`${products.id} = any(${sql.param(among)}::uuid[])`;

/**
 * An order no index gives (every listing's price times zero, then the page's own order): PostgreSQL
 * then collects the matches from the indexes that find them and sorts them, instead of scanning an
 * index in the page's order. The same rows in the same order, another plan.
 */
const collected = (order: SQL[]) => [sql`${products.resalePrice} * 0`, ...order];

/**
 * The rows of a page: `where` holds and the listings hold the words as `match` says, in the order
 * and after the position given; with `near`, read place by place from those places (`placeByPlace`).
 */
export type PageQuery = (
  where: (SQL | undefined)[],
  order: SQL[],
  key: SQL,
  rows: number,
  match?: WordsMatch,
  near?: SQL,
) => Promise<(ProductRecord & { sortKey: string })[]>;

/**
 * A page by relevance (decisions 12 and 27), in three tiers:
 *  1. the newest RANKED_BY_NAME listings named by every word, best named first (`nameRank`), then
 *     newest first;
 *  2. the older listings named by every word, newest first;
 *  3. the other matches (the words in the category, location or description), newest first;
 *     none looked for when the stored word counts show every listing holding a word names it.
 * The first page fixes where the ranked tier ends (the (posted_at, id) of its oldest listing, or
 * none when every named listing is in it) and the cursor carries it, so listings added while
 * someone pages can only join the ranked tier, never shift the others. A cursor key is
 * `tier|...|posted_at`. The ranked tier reads at most RANKED_BY_NAME rows a page; the others are
 * keyset index scans of the (posted_at, id) order, or bitmaps of their matches when few; a page
 * that empties one tier goes on with the next. So no search ranks every match, and page 200 costs
 * what page 1 does.
 */
export async function relevancePage(
  db: Executor,
  pageQuery: PageQuery,
  filters: (SQL | undefined)[],
  words: SearchWords | null,
  after: Cursor | null,
  rows: number,
  matches: PageMatches | null,
): Promise<{ rows: Awaited<ReturnType<PageQuery>>; rankedUntil: string | null; othersFew: boolean }> {
  const newest = newestBy(products.postedAt, products.id);
  // Without a searchable word (q held none) everything found is one tier, newest first.
  if (!words || !matches) {
    const position = after ? [newest.after(after.key.slice(2), after.id)] : [];
    return { rows: await pageQuery([...filters, ...position], newest.orderBy, sql`'3|' || ${newest.key}`, rows), rankedUntil: null, othersFew: false };
  }
  const afterTier = after ? Number(after.key[0]) : 1;
  const stems = [...new Set(words)];
  // Few named listings are collected from the name index; many are found through the list. Among
  // the matches found from a short list (the ids counted, or the place words), the named ones are
  // those whose name (weight A of the document) holds every word; filtered from the document, not
  // read from its index, which PostgreSQL would otherwise AND with that list (intersecting the
  // words' posting lists once more), nor by parsing each name.
  const namedInDocument = sql`ts_filter(${products.searchVector}, '{a}') @@ ${tsqueryOf(words)}::tsquery`;
  const namedTest = matches.found ? and(matches.found, namedInDocument)! : namedBy(stems);
  const namedMatch: WordsMatch = { stems, through: matches.shape.collectNamed ? null : nameWords, test: namedTest, collect: matches.shape.collectNamed };
  const named = namedMatch.through ? newestThrough(namedMatch.through) : newest;
  const rank = nameRank(words);
  const rankedKey = sql`'1|' || ${rank}::text || '|' || ${named.key}`;
  const found: Awaited<ReturnType<PageQuery>> = [];
  let rankedUntil = after?.rankedUntil ?? null;
  if (!after) {
    // The first page reads the ranked tier whole, newest first, in one scan, and ranks it here
    // (a stable sort: equal ranks stay newest first, as the SQL order of later pages has them).
    const ranked = await pageQuery(filters, named.orderBy, rankedKey, RANKED_BY_NAME, namedMatch);
    const oldest = ranked.at(-1);
    rankedUntil = ranked.length === RANKED_BY_NAME && oldest ? `${oldest.sortKey.split('|')[2]}|${oldest.id}` : null;
    const rankOf = (row: (typeof ranked)[number]) => Number(row.sortKey.split('|')[1]);
    found.push(...ranked.sort((a, b) => rankOf(b) - rankOf(a)).slice(0, rows));
  } else if (afterTier === 1) {
    const [, afterRank, afterPosted] = after.key.split('|');
    const where = [
      ...filters,
      rankedUntil ? named.from(rankedUntil) : undefined,
      sql`(${rank}, ${products.postedAt}, ${products.id}) < (${afterRank}::real, ${afterPosted}::timestamptz, ${after.id}::uuid)`,
    ];
    found.push(...(await pageQuery(where, [desc(rank), ...named.orderBy], rankedKey, rows, namedMatch)));
  }
  if (afterTier <= 2 && rankedUntil && found.length < rows) {
    // Past the ranked tier's end, or past the cursor, which is past it: one bound, not both. Given
    // two, PostgreSQL starts the index scan at the first and reads every entry down to the cursor,
    // so each page cost more than the one before.
    const position = after && afterTier === 2 ? named.after(after.key.slice(2), after.id) : named.past(rankedUntil);
    found.push(...(await pageQuery([...filters, position], named.orderBy, sql`'2|' || ${named.key}`, rows - found.length, namedMatch)));
  }
  let othersFew = false;
  if (found.length < rows && !matches.shape.noOthers) {
    const notNamed = sql`not ${products.searchVector} @@ ${tsqueryOf(words, 'A')}::tsquery`;
    // In a few places, the page that reaches the other matches counts them first, from the place
    // words' index: few of them (none, for a word nearly every match names) are collected from it,
    // on this page and the later ones (the cursor's `few`), instead of reading every older listing
    // of the place, or every older entry of the word's list, to find them.
    const inPlace = afterTier < 3 ? matches.othersInPlace : undefined;
    const counted = inPlace ? await countUpTo(db, [...inPlace.filters, inPlace.test, notNamed], COLLECT_UP_TO + 1) : null;
    othersFew = counted !== null && counted <= COLLECT_UP_TO;
    if (counted !== 0) {
      const collectedInPlace = othersFew && inPlace ? inPlace : null;
      const anywhere: WordsMatch = collectedInPlace ? { stems, through: null, test: collectedInPlace.test, collect: true } : heldAnywhere(words, matches, true);
      const other = anywhere.through ? newestThrough(anywhere.through) : newest;
      const where = [...(collectedInPlace?.filters ?? filters), notNamed];
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

/**
 * The statement of one page: its filters, the words as `match` says, its order and its size. With
 * `plannedOnce` (shape.ts) it is prepared once per connection, its size in the text: a plan made
 * for any number of rows would be costed for a tenth of the table, and never chosen.
 */
export function pageQueryOf(db: Executor, plannedOnce: boolean): PageQuery {
  return async (where, order, key, rows, match, near) => {
    const list = match?.through;
    // (Joined by id alone: PostgreSQL would take the posting time's equality as independent of the
    // id's and expect no row; the triggers keep the two the same.)
    const throughList = list ? sql` inner join ${list.table} as ${list.listed} on ${eq(list.listed.productId, products.id)}` : sql``;
    const holdsTheWords = match && (list ? listedUnderEvery(list, match.stems) : match.test);
    const orderBy = match?.collect ? collected(order) : order;
    const conditions = and(...where, holdsTheWords);
    // Each place's listings in id order, up to a page, then their rows.
    const from = (size: SQL) =>
      near
        ? sql`(${near}) as "near" cross join lateral (select ${products.id} from ${products} where ${products.placeId} = "near"."place_id" and ${conditions}
            order by ${products.id} limit ${size}) as "nearest" inner join (${listedProductsFrom}) on ${products.id} = "nearest"."id"`
        : sql`${listedProductsFrom}${throughList} where ${conditions}`;
    const statement = (size: SQL) => sql`select ${productSelectList}, ${key} as "sortKey" from ${from(size)} order by ${sql.join(orderBy, sql`, `)} limit ${size}`;
    const found = plannedOnce
      ? await executePrepared<Record<string, unknown> & { sortKey: string }>(db, statement(sql.raw(String(rows))))
      : (await db.execute<Record<string, unknown> & { sortKey: string }>(statement(sql`${rows}`))).rows;
    return found.map((row) => ({ ...productRecordOf(row), sortKey: row.sortKey }));
  };
}

/** A page in any order but relevance: through the document words' list newest first, or the listings in the sort's order. */
export function orderedPage(
  pageQuery: PageQuery,
  filters: (SQL | undefined)[],
  sort: Exclude<SearchSort, 'relevance'>,
  {
    words,
    matches,
    point,
    radius,
    after,
    plannedOnce,
    rows,
  }: { words: SearchWords | null; matches: PageMatches | null; point: SearchPoint | null; radius?: SQL; after: Cursor | null; plannedOnce: boolean; rows: number },
) {
  const match = words && matches ? heldAnywhere(words, matches, sort === 'newest') : undefined;
  const order = match?.through ? newestThrough(match.through) : ordering(sort, point);
  const position = after ? order.after(after.key, after.id, plannedOnce ? outOfPlannersSight : asGiven) : undefined;
  if (sort === 'distance' && !match?.collect) {
    // Many matches: read place by place, nearest first (few are collected and sorted). The places
    // are those within the circle, so a listing is not tested against it again: PostgreSQL would
    // take each place to hold fewer matches than it does, and collect them all instead of reading
    // them in order.
    const places = placeByPlace(point!);
    const besidesTheCircle = filters.filter((condition) => condition !== radius);
    return pageQuery([...besidesTheCircle, position], places.orderBy, places.key, rows, match, places.near(after?.key));
  }
  return pageQuery([...filters, position], order.orderBy, order.key, rows, match);
}
