import type { FastifyRequest } from 'fastify';
import type { DataVersions, WatchedTable } from '../cache/data-versions.ts';
import type { FacetCount, FacetGroupsOf } from './catalogue-search.ts';

/** What a search's facet groups are counted from: products, their categories, sellers and words. */
const FACET_TABLES: readonly WatchedTable[] = ['categories', 'products', 'users', 'search_terms'];
/** At most this many searches' groups are kept (up to a few kilobytes each); the least recently used go first. */
export const KEPT_FACET_SEARCHES = 2_000;

/**
 * Keeps the facet groups each search counted (decision 27), so the same search sorted otherwise,
 * narrowed to a category or a condition, or asked again with the response cache bypassed, counts
 * nothing. Groups are kept under the versions of the tables they were counted from and reused only
 * while those are current, as the response cache does (data-versions.ts): a listing added through
 * any app server is counted on the very next search of every other. Searches asked together while
 * one count is under way share it.
 */
export function facetCountKeeper(versions: DataVersions) {
  const kept = new Map<string, { versions: string; groups: Promise<FacetCount> }>();
  versions.onForget(() => kept.clear());
  return (request: Pick<FastifyRequest, 'caughtUp'>): FacetGroupsOf =>
    async (key, count) => {
      const current = await versions.current(request, FACET_TABLES);
      if (current === null) return count();
      const entry = kept.get(key);
      kept.delete(key);
      if (entry?.versions === current) {
        kept.set(key, entry);
        return entry.groups;
      }
      const counted = { versions: current, groups: count() };
      kept.set(key, counted);
      for (const oldest of kept.keys()) {
        if (kept.size <= KEPT_FACET_SEARCHES) break;
        kept.delete(oldest);
      }
      // A failed count is not kept: the next search counts again.
      counted.groups.catch(() => kept.get(key) === counted && kept.delete(key));
      return counted.groups;
    };
}
