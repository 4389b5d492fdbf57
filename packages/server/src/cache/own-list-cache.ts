import { getTableName, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { DatabaseListener } from '../db/listener.ts';
import { rowVersionOf, type OwnedList, type RowVersion } from '../db/row-versions.ts';
import type { Pagination } from '@furniture/contract';
import { pageOf, type Page } from '../http/pagination.ts';
import { encodedCopy, encodingFor, varyByEncoding, type CompressedCopies } from './compression.ts';
import type { WatchedTable } from './data-versions.ts';
import { answerHeaders } from './response-cache.ts';
import { VersionedCache } from './versioned-cache.ts';

/** All of one list's cached answers together stay under this many bytes; those not used lately go first (versioned-cache.ts). */
export const OWN_LIST_CACHE_BYTES = 4 * 1024 * 1024;

const fingerprintOf = (rows: readonly RowVersion[]) => rows.map((row) => `${row.id}:${row.version}`).join(',');

/**
 * Reads many keys in one query that rides the listening connection's next catch-up (`ride`, see
 * db/listener.ts): every key asked until that round trip starts is read by it, and the requests
 * whose catch-up it also is wait for one round trip instead of two. Each read starts after its
 * keys were asked, so it sees every commit made before that. A key read while the listening
 * connection is down answers undefined: nothing cached is reused then.
 */
export function batched<Key, Value>(
  listener: DatabaseListener,
  readMany: (connection: pg.Client, keys: Key[]) => Promise<Value[]>,
): (key: Key) => Promise<Value | undefined> {
  let waiting: Array<{ key: Key; resolve: (value: Value | undefined) => void; reject: (error: unknown) => void }> = [];
  async function readWaiting(connection: pg.Client | null) {
    const batch = waiting;
    waiting = [];
    try {
      const values = connection ? await readMany(connection, batch.map((asked) => asked.key)) : [];
      batch.forEach((asked, index) => asked.resolve(values[index]));
    } catch (error) {
      for (const asked of batch) asked.reject(error);
      throw error;
    }
  }
  return (key) =>
    new Promise((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      // The first key of a batch asks for the ride; the others join it.
      if (waiting.length === 1) listener.ride(readWaiting);
    });
}

/**
 * The fingerprints of owners' pages of a list as they are now, read by one named statement (parsed
 * and planned once, on the listening connection, whose catch-up it rides: `batched`) for every page
 * asked together: the ids and versions of each page's rows, from the list's own index.
 *
 * The arrays are read through subqueries so that no plan knows their length: a plan made for the
 * values of one execution (a custom plan) counted the buyers asked, one at most times, while the
 * plan for any values (the generic one) guesses ten, so PostgreSQL kept planning the statement
 * anew on every execution. Now both look alike and the generic plan is reused from the sixth on.
 */
function pageFingerprints(listener: DatabaseListener, statement: string, list: OwnedList): (owner: string, page: Page) => Promise<string | undefined> {
  const { sql: text } = new PgDialect().sqlToQuery(sql`select asked.n, own.id, own.version
    from unnest((select $1::uuid[]), (select $2::int[]), (select $3::int[])) with ordinality as asked(owner, row_limit, row_offset, n)
    cross join lateral (
      select ${list.id} as id, ${list.version ?? rowVersionOf(list.table)} as version, ${list.createdAt} as created_at
      from ${list.table} where ${list.owner} = asked.owner
      order by ${list.createdAt} desc, ${list.id} desc limit asked.row_limit offset asked.row_offset
    ) own
    order by asked.n, own.created_at desc, own.id desc`);
  const read = batched(listener, async (connection, asked: Array<{ owner: string; page: Page }>) => {
    const { rows } = await connection.query<[string, string, string]>({
      name: statement,
      text,
      values: [asked.map(({ owner }) => owner), asked.map(({ page }) => page.limit), asked.map(({ page }) => page.offset)],
      rowMode: 'array',
    });
    const pages: RowVersion[][] = asked.map(() => []);
    for (const [n, id, version] of rows) pages[Number(n) - 1]!.push({ id, version });
    return pages.map(fingerprintOf);
  });
  return (owner, page) => read({ owner, page });
}

export interface OwnListRead<Answer> {
  /** Whose list it is: the account the answer is about, found after the access check. */
  owner: string;
  /** The answer, with the versions of the very rows it was made from. */
  compute(): Promise<{ answer: Answer; rowVersions: readonly RowVersion[] }>;
}

interface Entry {
  fingerprint: string;
  /** The serialized answer, as it is sent to a client that accepts no compression. */
  body: Buffer;
  headers: Array<[string, string]>;
  encoded: CompressedCopies;
}

interface Pending {
  key: string;
  versions: string;
  fingerprint: string;
}

/**
 * The rows a list's fingerprint covers: the page the query string asks for and the row after it.
 * The query string of an own list (`emailListQuery`) has been validated by the time the access
 * check runs, so the page is the one the route reads.
 */
const probeOf = (request: FastifyRequest) => pageOf(request.query as Pagination).probe;

/** Sends a cached list: the copy the request accepts, compressed once per answer and not per request. */
async function send(request: FastifyRequest, reply: FastifyReply, entry: Entry): Promise<Buffer> {
  const encoding = encodingFor(entry.body, request.headers['accept-encoding']);
  varyByEncoding(reply, entry.body);
  for (const [name, value] of entry.headers) reply.header(name, value);
  return encodedCopy(reply, entry.body, entry.encoded, encoding);
}

/**
 * Caches the answers of one kind of a person's own list (a buyer's bookings, a buyer's wishes) on
 * this app server, by owner and URL: `list` says which rows the list holds, in which order. Its
 * own rows are written by the hot write paths, whose commits are not announced (a NOTIFY would
 * serialize them server-wide, decision 24), so a cached answer is reused only when two things
 * show it is current: the versions of the announced `tables` the answer also reads (caught up
 * with every commit before the request arrived, as the response cache does), and the fingerprint
 * of the owner's rows read again by one small query.
 * The fingerprint cached is the one of the rows the answer was made from, never an earlier one.
 *
 * An owner's page as it is now is read by one small query (`pageFingerprints`). The route gives
 * `readAhead` as its `onTokenVerified` (http/access.ts), so that for a caller reading their own
 * list the fingerprint rides the round trip the session check waits for.
 */
export function ownListCache(
  app: FastifyInstance,
  tables: readonly WatchedTable[],
  list: OwnedList,
) {
  const readFingerprint = pageFingerprints(app.databaseListener, `${getTableName(list.table)}_versions_of_owners`, list);
  const entries = new VersionedCache<Entry>(app.dataVersions, OWN_LIST_CACHE_BYTES, (entry) => entry.body.length + entry.fingerprint.length);
  const pending = new WeakMap<FastifyRequest, Pending>();
  /** Fingerprints asked for before the access check, and for whom (`readAhead`). */
  const readAheads = new WeakMap<FastifyRequest, { owner: string; fingerprint: Promise<string | undefined> }>();
  const keyOf = (owner: string, request: FastifyRequest) => `${owner} ${request.url}`;

  /**
   * The owner's page as it is now: the fingerprint read ahead for this request when it was read
   * for this owner, else one read now. Either is read after the request arrived.
   */
  function fingerprintNow(request: FastifyRequest, owner: string) {
    const ahead = readAheads.get(request);
    return ahead?.owner === owner ? ahead.fingerprint : readFingerprint(owner, probeOf(request));
  }

  return {
    /**
     * The route's `onTokenVerified`: when an answer of this URL is cached for the token's account,
     * asks for that page's fingerprint now, before the session is checked, so that it rides the
     * same round trip as the request's catch-up instead of the one after. It is only a read: the
     * answer still waits for the access check, and uses it only for a list of that very account
     * (an admin reading another's list reads that list's; a refused request drops it).
     */
    readAhead(request: FastifyRequest, userId: string) {
      if (!entries.has(keyOf(userId, request))) return;
      const ahead = readFingerprint(userId, probeOf(request));
      // Dropped when unused; when used, its failure is the answer's.
      ahead.catch(() => undefined);
      readAheads.set(request, { owner: userId, fingerprint: ahead });
    },

    /** The list's answer: the cached one, sent as it is, while it is current; else computed, and cached once serialized. */
    async answer<Answer>(request: FastifyRequest, reply: FastifyReply, read: OwnListRead<Answer>): Promise<Answer | FastifyReply> {
      const key = keyOf(read.owner, request);
      const cachedBefore = entries.has(key);
      const [versions, fingerprint] = await Promise.all([entries.versionsFor(request, tables), cachedBefore ? fingerprintNow(request, read.owner) : undefined]);
      const cached = entries.get(key, versions);
      if (cached && cached.fingerprint === fingerprint) return reply.send(await send(request, reply, cached));
      const computed = await read.compute();
      if (versions !== null) pending.set(request, { key, versions, fingerprint: fingerprintOf(computed.rowVersions) });
      return computed.answer;
    },

    /**
     * The route's onSend hook, before compression's: caches the answer just serialized, when it was
     * computed to be cached, and sends it as a cached one is sent.
     */
    async onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const toCache = pending.get(request);
      if (!toCache || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const entry: Entry = {
        fingerprint: toCache.fingerprint,
        body: Buffer.from(payload),
        headers: answerHeaders(reply),
        encoded: {},
      };
      entries.set(toCache.key, toCache.versions, entry);
      return send(request, reply, entry);
    },
  };
}
