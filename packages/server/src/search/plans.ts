import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { SearchQuery } from '@furniture/contract';
import * as schema from '../db/schema/index.ts';
import { searchCatalogue } from './search.ts';

/**
 * The query plans of every shape of catalogue search (decision 27), for the plan test (a small
 * catalogue, sequential scans off: is there an index for each?) and `npm run bench:api` (the
 * chosen size, planner as configured: does PostgreSQL use it?).
 */

export interface SearchShape {
  name: string;
  query: SearchQuery;
  /** Measured on this page, reached by following the cursor from the first. */
  page?: number;
  /** The facets are estimated from the sample from this many listings of the rarest word (FACET_SAMPLE_FROM unless given). */
  facetSampleFrom?: number;
}

/** Every kind of search the API serves; `categoryId` is any category of the catalogue. */
export function searchShapes(categoryId: string): SearchShape[] {
  return [
    { name: 'newest', query: {} },
    { name: 'words, relevance', query: { q: 'walnut dresser' } },
    { name: 'words in a town, relevance', query: { q: 'walnut dresser', location: 'Dhanmondi' } },
    { name: 'page 3, words in a town, relevance', query: { q: 'walnut dresser', location: 'Dhanmondi' }, page: 3 },
    { name: 'a broad word in a town, relevance', query: { q: 'oak', location: 'Dhanmondi' } },
    // Too common in the town to collect at a million listings: read newest first through the word's list.
    { name: 'page 3, a broad word in a town, newest', query: { q: 'oak', location: 'Dhanmondi', sort: 'newest' }, page: 3 },
    // Past every listing it names (the 66th page at a million): the others counted, none, and not read.
    { name: 'last page, a broad word in a town, relevance', query: { q: 'oak', location: 'Dhanmondi' }, page: 100 },
    { name: 'one broad word, relevance', query: { q: 'sofa' } },
    { name: 'a word in no name, relevance', query: { q: 'bogura' } },
    // The word counts show that no category holds both: no listing is read.
    { name: 'two broad words no category holds together', query: { q: 'sofa chair' } },
    // Two woods, held together by many categories (say the word counts) and by no listing.
    { name: 'two broad words seldom together, relevance', query: { q: 'oak walnut' } },
    { name: 'two broad words seldom together, newest', query: { q: 'oak walnut', sort: 'newest' } },
    { name: 'one broad word and a price bound', query: { q: 'sofa', minPrice: 1 } },
    { name: 'typo, relevance', query: { q: 'sofaa' } },
    { name: 'typo in two words', query: { q: 'walnutt chiar' } },
    { name: 'words, newest', query: { q: 'oak', sort: 'newest' } },
    { name: 'category, newest', query: { categoryId } },
    { name: 'category, price-asc', query: { categoryId, sort: 'price-asc' } },
    { name: 'price-asc', query: { sort: 'price-asc' } },
    { name: 'price range, price-desc', query: { minPrice: 100, maxPrice: 300, sort: 'price-desc' } },
    { name: 'condition', query: { condition: ['Good', 'Fair'] } },
    { name: 'location', query: { location: 'Dhanmondi' } },
    { name: 'location, a big city', query: { location: 'Dhaka' } },
    { name: 'location, a big city, words', query: { q: 'sofa', location: 'Dhaka' } },
    { name: 'location, misspelt', query: { location: 'Chatogram', sort: 'price-asc' } },
    // The place's stored counts answer its facets alone; with a price, its listings are counted.
    { name: 'location and a price', query: { location: 'Dhanmondi', maxPrice: 300 } },
    { name: 'verified sellers, price-desc', query: { sellerVerified: true, sort: 'price-desc' } },
    { name: 'words, category, condition, price', query: { q: 'oak', categoryId, condition: ['Good', 'Fair'], maxPrice: 300 } },
    // At a million listings "oak" is broad enough for the sample anyway; a small catalogue is not.
    { name: 'broad word and a price, facets from the sample', query: { q: 'oak', maxPrice: 300 }, facetSampleFrom: 0 },
    { name: 'doorway and space', query: { doorWidth: 80, doorHeight: 200, spaceWidth: 150, spaceDepth: 60, spaceHeight: 120, sort: 'price-asc' } },
    { name: 'page 40, newest', query: {}, page: 40 },
    { name: 'page 40, category', query: { categoryId }, page: 40 },
    { name: 'page 40, price-asc', query: { sort: 'price-asc' }, page: 40 },
    { name: 'page 40, words, relevance', query: { q: 'oak chair' }, page: 40 },
    { name: 'page 40, words past the named listings, relevance', query: { q: 'walnut dresser' }, page: 40 },
    { name: 'page 40, two words, newest', query: { q: 'walnut dresser', sort: 'newest' }, page: 40 },
    { name: 'two words in a category, newest', query: { q: 'walnut dresser', categoryId, sort: 'newest' } },
    { name: 'a word no listing of the category holds', query: { q: 'sofa', categoryId, sort: 'newest' } },
  ];
}

export interface StatementPlan {
  statement: string;
  plan: string;
  /** The plan reads the whole products table. */
  scansProducts: boolean;
}

/**
 * Runs the shape's search over `client` (following cursors to its page, `pageSize` rows a page)
 * and answers the plan of every statement that page sends, as EXPLAIN (ANALYZE, BUFFERS) reports
 * it. Planner settings made on `client` beforehand apply.
 */
export async function planSearch(client: pg.Client, shape: SearchShape, pageSize = 24): Promise<StatementPlan[]> {
  const captured: { query: string; params: unknown[] }[] = [];
  let capturing = false;
  const db = drizzle(client, { schema, logger: { logQuery: (query, params) => void (capturing && captured.push({ query, params })) } });
  let cursor: string | undefined;
  for (let page = 1; page < (shape.page ?? 1); page++) {
    const { nextCursor } = await searchCatalogue(db, { ...shape.query, limit: pageSize, cursor }, {}, shape);
    // A small catalogue may end sooner: its last page stands for the deep one.
    if (!nextCursor) break;
    cursor = nextCursor;
  }
  capturing = true;
  await searchCatalogue(db, { ...shape.query, limit: pageSize, cursor }, {}, shape);
  capturing = false;
  const plans: StatementPlan[] = [];
  for (const { query, params } of captured) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query}`, params);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    plans.push({ statement: query.replace(/\s+/g, ' '), plan, scansProducts: /Seq Scan on products/.test(plan) });
  }
  return plans;
}
