import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

/** The tables whose changes are announced on the `data_changes` channel (migration 0006). */
export type WatchedTable = 'categories' | 'products' | 'users' | 'search_terms' | 'reviews';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Keeps this GET route's answers, by URL, until a table it reads changes. Only for answers
     * that are the same for every caller allowed to ask (the route's access is still checked
     * before a kept answer is sent, unless the route is public).
     */
    cache?: { tables: readonly WatchedTable[] };
  }
  interface FastifyRequest {
    /** Versions of the route's tables when its answer was computed, when that answer may be kept. */
    cacheVersions?: string;
  }
}

export const DATA_CHANGES_CHANNEL = 'data_changes';
/** All kept answers together stay under this many bytes; the least recently used go first. */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;
const MAX_ENTRY_BYTES = 1024 * 1024;
/**
 * Browsers and CDNs keep an answer but ask again each time (a 304 costs a few bytes): someone who
 * has just listed or bought something must see it on their next read, never a copy from before.
 */
const PUBLIC_CACHE_CONTROL = 'public, no-cache';
const PRIVATE_CACHE_CONTROL = 'private, no-cache';
/** The answer headers a kept answer is sent again with (others are the request's own: CORS, security). */
const keptHeaders = ['content-type', 'link'] as const;

interface Entry {
  versions: string;
  payload: string;
  etag: string;
  headers: Partial<Record<(typeof keptHeaders)[number], string>>;
}

/**
 * The response cache: keeps the serialized answers of hot reads on this app server and sends them
 * again without touching the handler, the database or the serializer. Every app server hears, by
 * PostgreSQL NOTIFY, which tables each committed transaction changed, and forgets what read them.
 * Before answering from it, the server makes sure it has heard of every transaction committed
 * before the request arrived (one round trip on the listening connection, shared by the requests
 * that arrive together), so a change made through any app server shows on the very next read of
 * every other. While the listening connection is down, answers are neither kept nor reused. Kept
 * answers carry an ETag; a request that names it gets 304.
 */
export const responseCachePlugin = fp(
  async (app: FastifyInstance) => {
    const tableVersions = new Map<string, number>();
    /** Bumped when notifications may have been missed: every kept answer is then forgotten. */
    let epoch = 0;
    const entries = new Map<string, Entry>();
    let keptBytes = 0;

    const versionsOf = (tables: readonly WatchedTable[]) =>
      `${epoch}:${tables.map((table) => tableVersions.get(table) ?? 0).join('.')}`;

    function forget(key: string) {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      keptBytes -= entry.payload.length;
    }

    function keep(key: string, entry: Entry) {
      forget(key);
      entries.set(key, entry);
      keptBytes += entry.payload.length;
      for (const oldest of entries.keys()) {
        if (keptBytes <= RESPONSE_CACHE_BYTES) break;
        forget(oldest);
      }
    }

    await app.databaseListener.subscribe(DATA_CHANGES_CHANNEL, (table) => {
      tableVersions.set(table, (tableVersions.get(table) ?? 0) + 1);
    });
    app.databaseListener.onReconnect(() => {
      epoch += 1;
      entries.clear();
      keptBytes = 0;
    });

    function lookup(tables: readonly WatchedTable[]) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        if (request.method !== 'GET' || !(await app.databaseListener.catchUp())) return;
        const versions = versionsOf(tables);
        const entry = entries.get(request.url);
        if (entry?.versions !== versions) {
          request.cacheVersions = versions;
          return;
        }
        // Most recently used last, so the oldest in the map are the first to go.
        entries.delete(request.url);
        entries.set(request.url, entry);
        reply.header('etag', entry.etag);
        if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
        for (const [name, value] of Object.entries(entry.headers)) reply.header(name, value);
        return reply.send(entry.payload);
      };
    }

    async function store(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      if (!request.cacheVersions || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
      if (payload.length <= MAX_ENTRY_BYTES) {
        const headers: Entry['headers'] = {};
        for (const name of keptHeaders) {
          const value = reply.getHeader(name);
          if (typeof value === 'string') headers[name] = value;
        }
        keep(request.url, { versions: request.cacheVersions, payload, etag, headers });
      }
      if (request.headers['if-none-match'] !== etag) return payload;
      reply.code(304);
      return '';
    }

    app.addHook('onRoute', (route: RouteOptions) => {
      const tables = route.config?.cache?.tables;
      if (!tables) return;
      const check = lookup(tables);
      const isPublic = route.config?.access === 'public';
      const cacheControl = async (_request: FastifyRequest, reply: FastifyReply) => {
        reply.header('cache-control', isPublic ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL);
      };
      // A public answer is sent before anything else is done; others once access is checked.
      if (isPublic) route.onRequest = [...[route.onRequest ?? []].flat(), cacheControl, check];
      else route.preHandler = [...[route.preHandler ?? []].flat(), cacheControl, check];
      // Before compression, which replaces the serialized answer with its compressed stream.
      route.onSend = [store, ...[route.onSend ?? []].flat()];
    });
  },
  { name: 'response-cache', dependencies: ['database-listener'] },
);
