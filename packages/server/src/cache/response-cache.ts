import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { encodedCopy, encodingFor, varyByEncoding, type CompressedCopies } from './compression.ts';
import type { WatchedTable } from './data-versions.ts';
import { VersionedCache } from './versioned-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Caches this GET route's answers, by URL, until a table it reads changes. Only for answers
     * that are the same for every caller allowed to ask (the route's access is still checked
     * before a cached answer is sent, unless the route is public).
     */
    cache?: {
      tables: readonly WatchedTable[];
      /**
       * Done for every answer of the route sent with 200 or 304, cached or not, from what the URL
       * said (the route's params) and the request as it came: a product's page counts a view. It
       * must be cheap and must not change the answer.
       */
      onAnswer?: (request: IncomingMessage, params: Readonly<Record<string, string>>) => void;
      /** The Cache-Control of the route's answers, cached or not, when not the usual one of its access. */
      cacheControl?: string;
    };
  }
  interface FastifyRequest {
    /**
     * Versions of the route's tables when its answer was computed, when that answer may be cached.
     * A handler sets it to null to have its answer sent but not cached (one made in a way it should
     * not be made again, as a page the server could not render).
     */
    cacheVersions: string | null;
  }
}

/** All cached answers together stay under this many bytes; those not used lately go first (versioned-cache.ts). */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;
const MAX_ENTRY_BYTES = 1024 * 1024;
/**
 * A public answer may be reused by a browser or CDN for a while after it goes stale, as long as it
 * asks again in the background meanwhile; our own web client asks every time (`cache: 'no-cache'`),
 * so someone who has just listed or bought something sees it on their next read.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, stale-while-revalidate=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

type OnAnswer = NonNullable<NonNullable<FastifyContextConfig['cache']>['onAnswer']>;

interface Entry {
  /** The serialized answer, as it is sent to a client that accepts no compression. */
  body: Buffer;
  /** A hash of the body, the same on every server; each encoding's ETag is made from it. */
  hash: string;
  headers: Array<[string, string]>;
  encoded: CompressedCopies;
}

/** The headers of a computed answer that a cached one is sent with (others are the request's own: CORS, security). */
export function answerHeaders(reply: FastifyReply): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (const name of ['content-type', 'link']) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers.push([name, value]);
  }
  return headers;
}

/** Whether an If-None-Match header names this ETag (alone, in a list, or weak), or any (`*`). */
const names = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && (ifNoneMatch.includes(etag) || ifNoneMatch.trim() === '*');

/** The encoding a cached answer goes out in for this request, and that copy's ETag. */
function chooseCopy(entry: Entry, acceptEncoding: string | undefined) {
  const encoding = encodingFor(entry.body, acceptEncoding);
  return { encoding, etag: encoding ? `"${entry.hash}-${encoding}"` : `"${entry.hash}"` };
}

/**
 * Sends an answer of the cache: the copy the request accepts, compressed once per answer and not
 * per request, with that copy's ETag, or 304 when the request names it.
 */
async function send(request: FastifyRequest, reply: FastifyReply, entry: Entry): Promise<Buffer | string> {
  const { encoding, etag } = chooseCopy(entry, request.headers['accept-encoding']);
  reply.header('etag', etag);
  varyByEncoding(reply, entry.body);
  if (names(request.headers['if-none-match'], etag)) {
    reply.code(304);
    return '';
  }
  for (const [name, value] of entry.headers) reply.header(name, value);
  return encodedCopy(reply, entry.body, entry.encoded, encoding);
}

/**
 * The response cache: holds the serialized answers of hot reads on this app server, with their
 * ETag and compressed copies, and sends them again without touching the handler, the database, the
 * serializer or the compressor. An answer is cached under the versions of the tables it read (see
 * data-versions.ts) and reused only while they are current, so a change made through any app
 * server shows on the very next read of every other. While the listening connection is down,
 * answers are neither cached nor reused.
 */
export const responseCachePlugin = fp(
  async (app: FastifyInstance) => {
    const entries = new VersionedCache<Entry>(app.dataVersions, RESPONSE_CACHE_BYTES, (entry) => entry.body.length);

    app.decorateRequest('cacheVersions', null);

    /**
     * Answers being computed, by versions and URL. A write makes a hot read stale for every request
     * in flight at once: each computing it again would multiply the work by the requests waiting,
     * and every one of them would wait for all that work.
     */
    const computing = new Map<string, Promise<Entry | null>>();
    /** For the request computing an answer: hands it (or null, for one not to cache) to those waiting. */
    const handOver = new WeakMap<FastifyRequest, (entry: Entry | null) => void>();

    /** Makes `request` the one computing its answer at `versions`, for the requests that come meanwhile. */
    function computeFor(request: FastifyRequest, reply: FastifyReply, key: string) {
      let settle!: (entry: Entry | null) => void;
      const computed = new Promise<Entry | null>((resolve) => (settle = resolve));
      computing.set(key, computed);
      const done = (entry: Entry | null) => {
        if (computing.get(key) === computed) computing.delete(key);
        settle(entry);
      };
      handOver.set(request, done);
      // An answer that never reaches the store (the connection closed first) leaves the others to compute it.
      reply.raw.once('close', () => done(null));
    }

    /**
     * The answer another request is computing for this URL at these versions, when it is to be
     * cached; else null, and this request computes it (for those that come meanwhile, unless
     * another already does): `request.cacheVersions` says under which versions to cache it.
     */
    async function computedElsewhere(request: FastifyRequest, reply: FastifyReply, versions: string): Promise<Entry | null> {
      const key = `${versions} ${request.url}`;
      const pending = computing.get(key);
      const computed = pending && (await pending);
      if (computed) return computed;
      if (!pending) computeFor(request, reply, key);
      request.cacheVersions = versions;
      return null;
    }

    /** Sends the cached answer of this request's URL, or the one another request computed, and answers true; false when the route is to compute it. */
    async function answerFromCache(request: FastifyRequest, reply: FastifyReply, tables: readonly WatchedTable[]): Promise<boolean> {
      // A HEAD is answered as its GET is, with the same headers (Fastify drops the body).
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const versions = await entries.versionsFor(request, tables);
      if (versions === null) return false;
      const entry = entries.get(request.url, versions) ?? (await computedElsewhere(request, reply, versions));
      if (!entry) return false;
      reply.send(await send(request, reply, entry));
      return true;
    }

    /**
     * The route's hook, in Fastify's callback style: one that has sent the answer never calls
     * `done`. An async hook would have to return the reply, and Fastify then waits for the
     * response to end through listeners on its stream, for every answer sent from the cache.
     */
    function lookup(tables: readonly WatchedTable[], cacheControl: string) {
      return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
        reply.header('cache-control', cacheControl);
        answerFromCache(request, reply, tables).then(
          (answered) => {
            if (!answered) done();
          },
          (error: Error) => done(error),
        );
      };
    }

    function store(onAnswer: OnAnswer | undefined) {
      return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const params = request.params as Parameters<OnAnswer>[1];
        if (reply.statusCode === 200 || reply.statusCode === 304) onAnswer?.(request.raw, params);
        const handOverTo = handOver.get(request) ?? (() => undefined);
        if (!request.cacheVersions || reply.statusCode !== 200 || typeof payload !== 'string') {
          handOverTo(null);
          return payload;
        }
        const body = Buffer.from(payload);
        const headers = answerHeaders(reply);
        const hash = createHash('sha1').update(body).digest('base64url');
        const entry: Entry = { body, hash, headers, encoded: {} };
        if (body.length <= MAX_ENTRY_BYTES) entries.set(request.url, request.cacheVersions, entry);
        handOverTo(entry);
        return send(request, reply, entry);
      };
    }

    app.addHook('onRoute', (route: RouteOptions) => {
      const cache = route.config?.cache;
      if (!cache) return;
      const { tables } = cache;
      const access = route.config?.access;
      if (!access) throw new Error(`Route ${route.url} keeps its answers but does not declare config.access`);
      const isPublic = access === 'public';
      const check = lookup(tables, cache.cacheControl ?? (isPublic ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL));
      // A public answer is sent before anything else is done; others once access is checked.
      if (isPublic) route.onRequest = [...[route.onRequest ?? []].flat(), check];
      else route.preHandler = [...[route.preHandler ?? []].flat(), check];
      // Before compression, which would otherwise compress the answer again for every request.
      route.onSend = [store(cache.onAnswer), ...[route.onSend ?? []].flat()];
    });
  },
  { name: 'response-cache', dependencies: ['data-versions'] },
);
