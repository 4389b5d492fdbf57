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
  /** The sort key exactly as PostgreSQL printed it: a timestamp, a price, or a relevance tier, a rank and a timestamp. */
  key: string;
  id: string;
  /** Relevance only: where its ranked tier ends, `posted_at|id` (null when every named listing is in it). */
  rankedUntil?: string | null;
  /**
   * A page counted few matches of its words in the places asked for (the first page all of them,
   * or the one reaching relevance's third tier the others): the later ones collect and sort them (decision 27).
   */
  few?: boolean;
}

const timestamp = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?/.source;
const keyPatterns: Record<SearchSort, RegExp> = {
  newest: new RegExp(`^${timestamp}$`),
  'price-asc': /^\d{1,10}(\.\d{1,2})?$/,
  'price-desc': /^\d{1,10}(\.\d{1,2})?$/,
  // The relevance tier: the ranked one with the rank (a real), or another; then the time posted.
  // Metres, as PostgreSQL prints a double precision.
  distance: /^\d{1,8}(\.\d{1,17})?(e[+-]\d{1,3})?$/,
  relevance: new RegExp(`^(1\\|\\d+(\\.\\d+)?(e-\\d+)?|[23])\\|${timestamp}$`),
};

/**
 * The regular expressions take any digits; PostgreSQL refuses a 31st of February, an hour 25 or a
 * rank a real cannot hold, so those are refused here instead of failing the search.
 */
const timestampParts = /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?[+-](\d{2})(?::(\d{2}))?/g;
function holdsRealValues(text: string): boolean {
  for (const [, year, month, day, hour, minute, second, zoneHours, zoneMinutes = '0'] of text.matchAll(timestampParts)) {
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    const realDay = Number(year) >= 1 && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
    if (!realDay || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Number(zoneHours) > 15 || Number(zoneMinutes) > 59) {
      return false;
    }
  }
  const rank = /^1\|([^|]+)\|/.exec(text)?.[1];
  if (rank === undefined) return true;
  const value = Number(rank);
  // A real's normal range; ranks are never that small or large.
  return value === 0 ? /^0(\.0+)?$/.test(rank) : value >= 1e-37 && value <= 1e37;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.source;
const uuidPattern = new RegExp(`^${uuid}$`);
const rankedUntilPattern = new RegExp(`^${timestamp}\\|${uuid}$`);

/** A short fingerprint of everything that defines a search but the page. */
export function searchFingerprint(search: Record<string, unknown>): string {
  const entries = Object.entries(search)
    .filter(([name, value]) => name !== 'cursor' && name !== 'limit' && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 12);
}

export function encodeCursor(cursor: Cursor, fingerprint: string): string {
  const { sort: s, key: k, id: i, rankedUntil: r, few } = cursor;
  return Buffer.from(JSON.stringify({ s, k, i, f: fingerprint, ...(r ? { r } : {}), ...(few ? { g: true } : {}) })).toString('base64url');
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
  const { s, k, i, f, r, g } = parsed as Record<string, unknown>;
  if (s !== sort || f !== fingerprint) throw badRequest(serverMessages.products.otherSearchCursor);
  if (typeof k !== 'string' || typeof i !== 'string' || !keyPatterns[sort].test(k) || !uuidPattern.test(i)) throw invalid();
  if (r !== undefined && (sort !== 'relevance' || typeof r !== 'string' || !rankedUntilPattern.test(r))) throw invalid();
  if (!holdsRealValues(k) || (typeof r === 'string' && !holdsRealValues(r))) throw invalid();
  if (g !== undefined && g !== true) throw invalid();
  // The older named listings (tier 2) exist only past the end of a ranked tier.
  if (sort === 'relevance' && k.startsWith('2|') && r === undefined) throw invalid();
  return { sort, key: k, id: i, rankedUntil: (r as string | undefined) ?? null, few: g === true };
}
