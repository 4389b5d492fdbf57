import { serverMessages } from '@furniture/contract';
import { createHash } from 'node:crypto';
import type { SearchSort } from '@furniture/contract';
import { badRequest } from '../http/errors.ts';

/**
 * A keyset cursor: the sort key and id of the last row of a page, the sort it belongs to, and a
 * fingerprint of the search, so it is refused with another search. It is opaque to clients
 * (base64url JSON) but holds nothing secret: a forged one can only name a position, and is
 * refused unless it is well formed.
 */
export interface Cursor {
  sort: SearchSort;
  /** The sort key exactly as PostgreSQL printed it: a timestamp, a price, or a relevance tier and a timestamp. */
  key: string;
  id: string;
}

const timestamp = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?/.source;
const keyPatterns: Record<SearchSort, RegExp> = {
  newest: new RegExp(`^${timestamp}$`),
  'price-asc': /^\d{1,10}(\.\d{1,2})?$/,
  'price-desc': /^\d{1,10}(\.\d{1,2})?$/,
  // The relevance tier (1 or 2), then the time posted.
  relevance: new RegExp(`^[12]\\|${timestamp}$`),
};
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A short fingerprint of everything that defines a search but the page. */
export function searchFingerprint(search: Record<string, unknown>): string {
  const entries = Object.entries(search)
    .filter(([name, value]) => name !== 'cursor' && name !== 'limit' && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 12);
}

export function encodeCursor(cursor: Cursor, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ s: cursor.sort, k: cursor.key, i: cursor.id, f: fingerprint })).toString('base64url');
}

export function decodeCursor(text: string, sort: SearchSort, fingerprint: string): Cursor {
  const invalid = () => badRequest(serverMessages.products.badCursor);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!parsed || typeof parsed !== 'object') throw invalid();
  const { s, k, i, f } = parsed as Record<string, unknown>;
  if (s !== sort || f !== fingerprint) throw badRequest(serverMessages.products.otherSearchCursor);
  if (typeof k !== 'string' || typeof i !== 'string' || !keyPatterns[sort].test(k) || !uuidPattern.test(i)) throw invalid();
  return { sort, key: k, id: i };
}
