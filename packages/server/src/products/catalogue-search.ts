import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  conditions,
  FACET_COUNT_LIMIT,
  SEARCH_DEFAULT_LIMIT,
  type Facets,
  type SearchQuery,
  type SearchSort,
} from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { categories, products, users } from '../db/schema/index.ts';
import { fitsInSpaceSql, fitsThroughDoorwaySql } from './fit-geometry.ts';
import { productColumns, publiclyVisible, type ProductRecord } from './product-repository.ts';
import { decodeCursor, encodeCursor, searchFingerprint } from './search-cursor.ts';

/** At most this many words of a search are used; the rest cannot narrow it much further. */
const MAX_SEARCH_WORDS = 8;
/** A misspelt word is tried as up to this many known stems that resemble it. */
const CORRECTIONS_PER_WORD = 3;

export interface SearchResult {
  rows: ProductRecord[];
  nextCursor: string | null;
  facets: Facets | null;
}

/** Quotes a lexeme for tsquery input: inside quotes, a backslash escapes the next character. */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/['\\]/g, '\\$&')}'`;

/**
 * Turns the words of a search into a tsquery (decision 12): each word is stemmed as the
 * documents are; a stem the catalogue contains is used as it is, and one it does not contain is
 * replaced by the known stems most similar to it (trigram similarity), so "sofaa" finds sofas.
 * All words must match. Answers null when the text holds no searchable word.
 */
export async function textQueryFor(db: Executor, text: string): Promise<string | null> {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return null;
  const result = await db.execute<{ ord: string; lexeme: string; alternatives: string[] }>(sql`
    select w.ord, s.lexeme,
      case when known.found then array[s.lexeme] else array(
        select t.term from search_terms t
        where t.term % s.lexeme
        order by similarity(t.term, s.lexeme) desc, t.term
        limit ${CORRECTIONS_PER_WORD}
      ) end as alternatives
    from json_array_elements_text(${JSON.stringify(words)}::json) with ordinality as w(word, ord)
    cross join lateral unnest(tsvector_to_array(to_tsvector('furniture_search', w.word))) as s(lexeme)
    cross join lateral (select exists(select 1 from search_terms where term = s.lexeme) as found) as known
    order by w.ord, s.lexeme`);
  if (result.rows.length === 0) return null;
  return result.rows
    .map(({ lexeme, alternatives }) => {
      // A word like nothing in the catalogue stays as it is, and so matches nothing.
      const terms = (alternatives.length > 0 ? alternatives : [lexeme]).map(quoteLexeme);
      return terms.length > 1 ? `(${terms.join(' | ')})` : terms[0]!;
    })
    .join(' & ');
}

/** The conditions of a search but the two that facets count by (condition and category). */
function conditionsBesideFacets(query: SearchQuery, textQuery: string | null): SQL[] {
  const where: SQL[] = [publiclyVisible];
  if (query.inStock !== false) where.push(eq(products.inStock, 'available'));
  if (textQuery) where.push(sql`${products.searchVector} @@ ${textQuery}::tsquery`);
  if (query.minPrice !== undefined) where.push(sql`${products.resalePrice} >= ${query.minPrice}::numeric`);
  if (query.maxPrice !== undefined) where.push(sql`${products.resalePrice} <= ${query.maxPrice}::numeric`);
  if (query.location) {
    // Loosely: a similar word anywhere in the place name (typos and accents forgiven), or a part of it.
    const place = sql`furniture_fold(${query.location})`;
    const location = sql`furniture_fold(${products.location})`;
    where.push(sql`(${place} <% ${location} or ${location} like '%' || ${place} || '%')`);
  }
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

/** The sort key, the order and the keyset condition of each sort. */
function ordering(sort: SearchSort, textQuery: string | null) {
  const rank = textQuery ? sql`ts_rank_cd(${products.searchVector}, ${textQuery}::tsquery)` : sql`0::real`;
  switch (sort) {
    case 'newest':
      return {
        key: products.postedAt,
        orderBy: [desc(products.postedAt), desc(products.id)],
        after: (key: string, id: string) => sql`(${products.postedAt}, ${products.id}) < (${key}::timestamptz, ${id}::uuid)`,
      };
    case 'price-asc':
      return {
        key: products.resalePrice,
        orderBy: [asc(products.resalePrice), asc(products.id)],
        after: (key: string, id: string) => sql`(${products.resalePrice}, ${products.id}) > (${key}::numeric, ${id}::uuid)`,
      };
    case 'price-desc':
      return {
        key: products.resalePrice,
        orderBy: [desc(products.resalePrice), desc(products.id)],
        after: (key: string, id: string) => sql`(${products.resalePrice}, ${products.id}) < (${key}::numeric, ${id}::uuid)`,
      };
    case 'relevance':
      return {
        key: rank,
        orderBy: [sql`${rank} desc`, desc(products.id)],
        after: (key: string, id: string) => sql`(${rank}, ${products.id}) < (${key}::real, ${id}::uuid)`,
      };
  }
}

/**
 * Counts by condition and by category, each ignoring its own filter, so a count says how many
 * results choosing that value would leave. Exact while at most FACET_COUNT_LIMIT listings match;
 * beyond, the counts come from the first FACET_COUNT_LIMIT found and are lower bounds.
 */
async function countFacets(db: Executor, query: SearchQuery, besides: SQL[]): Promise<Facets> {
  const matched = db
    .select({ condition: products.condition, categoryId: products.categoryId })
    .from(products)
    .where(and(...besides))
    .limit(FACET_COUNT_LIMIT + 1)
    .as('matched');
  const groups = await db
    .select({ condition: matched.condition, categoryId: matched.categoryId, count: sql<number>`count(*)::int` })
    .from(matched)
    .groupBy(matched.condition, matched.categoryId);
  const facets: Facets = {
    condition: Object.fromEntries(conditions.map((condition) => [condition, 0])),
    category: {},
    exact: true,
  };
  let total = 0;
  for (const group of groups) {
    total += group.count;
    if (!query.categoryId || group.categoryId === query.categoryId) {
      facets.condition[group.condition] = (facets.condition[group.condition] ?? 0) + group.count;
    }
    if (!query.condition?.length || query.condition.includes(group.condition)) {
      facets.category[group.categoryId] = (facets.category[group.categoryId] ?? 0) + group.count;
    }
  }
  facets.exact = total <= FACET_COUNT_LIMIT;
  return facets;
}

export function searchSortOf(query: Pick<SearchQuery, 'sort' | 'q'>): SearchSort {
  return query.sort ?? (query.q ? 'relevance' : 'newest');
}

/** One page of a catalogue search, with its next cursor and, on the first page, its facets. */
export async function searchCatalogue(db: Executor, query: SearchQuery): Promise<SearchResult> {
  const sort = searchSortOf(query);
  const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
  const fingerprint = searchFingerprint({ ...query, sort });
  const after = query.cursor ? decodeCursor(query.cursor, sort, fingerprint) : null;
  const textQuery = query.q ? await textQueryFor(db, query.q) : null;

  const besides = conditionsBesideFacets(query, textQuery);
  const { category, condition } = facetConditions(query);
  const order = ordering(sort, textQuery);
  const where = [...besides, category, condition, after ? order.after(after.key, after.id) : undefined];

  const [rows, facets] = await Promise.all([
    db
      .select({ ...productColumns, sortKey: sql<string>`${order.key}::text` })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(users, eq(users.id, products.sellerId))
      .where(and(...where))
      .orderBy(...order.orderBy)
      .limit(limit + 1),
    after ? null : countFacets(db, query, besides),
  ]);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeCursor({ sort, key: last.sortKey, id: last.id }, fingerprint) : null;
  return { rows: page, nextCursor, facets };
}
