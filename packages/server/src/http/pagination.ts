import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIST_DEFAULT_LIMIT, type Pagination } from '@furniture/contract';

export interface Page {
  limit: number;
  offset: number;
}

/** The rows a listing asks the database for: one more than the page, to know whether another follows. */
export function pageOf(query: Pagination): Page & { probe: Page } {
  const limit = query.limit ?? LIST_DEFAULT_LIMIT;
  const offset = ((query.page ?? 1) - 1) * limit;
  return { limit, offset, probe: { limit: limit + 1, offset } };
}

/**
 * Cuts the probed rows to the page. The body keeps the specification's shape; when more rows
 * follow, a `Link: <...>; rel="next"` header points at the next page.
 */
export function pageRows<T>(request: FastifyRequest, reply: FastifyReply, rows: T[], page: Page): T[] {
  if (rows.length <= page.limit) return rows;
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.set('page', String(page.offset / page.limit + 2));
  url.searchParams.set('limit', String(page.limit));
  void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
  return rows.slice(0, page.limit);
}

export const paginationDescription =
  'Optional `page` (from 1) and `limit` (default 50, at most 100). When more rows follow, the `Link` response header names the next page (rel="next").';
