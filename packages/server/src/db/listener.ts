import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { poolOf } from './client.ts';

/**
 * One LISTEN connection per app server, shared by every service that hears PostgreSQL NOTIFY
 * (live events, caches): subscribe to a channel, get its payloads. The connection is its own, out
 * of the pool, and comes back by itself after the database restarts or the network drops; NOTIFY
 * messages sent while it was away are lost, so subscribers are told of each reconnection and catch
 * up from the database then.
 *
 *   const stop = await app.databaseListener.subscribe('cache_changes', (payload) => forget(payload));
 *   app.databaseListener.onReconnect(() => forgetEverything());
 */
export interface DatabaseListener {
  /** Listens on a channel; answers a function that stops this subscription. */
  subscribe(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Called each time the connection is back, once every channel is listened to again. */
  onReconnect(handler: () => void): () => void;
  /**
   * Resolves true once every notification of a transaction committed before the call has been
   * handed to its subscribers; false when the connection is down, so some may be lost. PostgreSQL
   * sends a listening session the notifications it has been signalled before it answers a query
   * there, so one round trip on the connection, sent after the call, is the proof: an empty query,
   * which PostgreSQL answers without parsing or planning anything, or the reads riding it (`ride`).
   * The round trip is sent two turns of the event loop after the call, or after the one under way
   * returns, and every call made until then shares it: the first turn lets the requests the last
   * round trip caught up be answered, the second reads the requests that arrived meanwhile (often
   * those clients' next ones), which then share it instead of waiting for the one after.
   */
  catchUp(): Promise<boolean>;
  /**
   * Runs a read as the next catch-up's round trip, in place of its empty query: a read that must
   * see every commit made before it was asked (a cached list's fingerprint) and the catch-up of the
   * requests that arrived meanwhile then cost one round trip, not two. `read` is called as the
   * round trip starts, with the listening connection to send its one query on, or with null when
   * the connection is down; the catch-up fails if the read does.
   */
  ride(read: (connection: pg.Client | null) => Promise<void>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    databaseListener: DatabaseListener;
  }
}

/** Resolves in the event loop's next turn, once the input that has arrived meanwhile is read. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits between attempts to reconnect: doubling from the first to the last. */
export const RECONNECT_DELAYS_MS = { first: 100, last: 5_000 };

export function createDatabaseListener(connectionConfig: pg.ClientConfig, log: FastifyBaseLogger) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const reconnectHandlers = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let connectedBefore = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let nextDelay = RECONNECT_DELAYS_MS.first;
  let failedAttempts = 0;

  let roundTrip: Promise<boolean> | null = null;
  let nextRoundTrip: Promise<boolean> | null = null;

  /**
   * The last query sent on each connection, settled or not: the next waits for it. pg queues a
   * query sent while another runs, but warns that it will stop doing so, and LISTEN, UNLISTEN and
   * the catch-up's round trips may all be asked for at once.
   */
  const lastQuery = new WeakMap<pg.Client, Promise<unknown>>();
  function inTurn(connection: pg.Client, run: () => Promise<unknown>): Promise<unknown> {
    const result = (lastQuery.get(connection) ?? Promise.resolve()).then(run);
    lastQuery.set(connection, result.catch(() => undefined));
    return result;
  }
  const query = (connection: pg.Client, text: string) => inTurn(connection, () => connection.query(text));

  /** Reads asked to ride the next round trip (`ride`). */
  let riders: Array<(connection: pg.Client | null) => Promise<void>> = [];

  function startRoundTrip(): Promise<boolean> {
    const connection = client;
    const reads = riders;
    riders = [];
    if (!connection) {
      for (const read of reads) void read(null).catch(() => undefined);
      return Promise.resolve(false);
    }
    const sent = reads.length > 0 ? reads.map((read) => inTurn(connection, () => read(connection))) : [query(connection, '')];
    const trip = Promise.all(sent).then(
      () => client === connection,
      () => false,
    );
    roundTrip = trip;
    void trip.then(() => {
      if (roundTrip === trip) roundTrip = null;
    });
    return trip;
  }

  const listen = (connection: pg.Client, channel: string) => query(connection, `LISTEN ${connection.escapeIdentifier(channel)}`);

  function connectionLost(lost: pg.Client, error?: Error) {
    if (client !== lost) return;
    client = null;
    lost.removeAllListeners('notification');
    lost.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err: error }, 'the database listener lost its connection; reconnecting');
    scheduleConnect();
  }

  function scheduleConnect() {
    retryTimer = setTimeout(() => void connect(), nextDelay);
    nextDelay = Math.min(nextDelay * 2, RECONNECT_DELAYS_MS.last);
  }

  async function connect() {
    if (closed) return;
    const connection = new pg.Client({ ...connectionConfig, keepAlive: true });
    connection.on('error', (error) => connectionLost(connection, error));
    connection.on('end', () => connectionLost(connection));
    connection.on('notification', ({ channel, payload }) => {
      for (const handler of handlers.get(channel) ?? []) handler(payload ?? '');
    });
    try {
      await connection.connect();
      for (const channel of handlers.keys()) await listen(connection, channel);
    } catch (error) {
      connection.removeAllListeners();
      connection.on('error', () => undefined);
      await connection.end().catch(() => undefined);
      if (closed) return;
      // Once per outage is enough in the log; the attempts go on every few seconds.
      if (failedAttempts++ === 0) log.warn({ err: error }, 'the database listener could not connect; trying again');
      scheduleConnect();
      return;
    }
    if (closed) {
      await connection.end().catch(() => undefined);
      return;
    }
    client = connection;
    nextDelay = RECONNECT_DELAYS_MS.first;
    failedAttempts = 0;
    if (connectedBefore) {
      log.info('the database listener reconnected');
      for (const handler of reconnectHandlers) handler();
    }
    connectedBefore = true;
  }

  const listener: DatabaseListener = {
    async subscribe(channel, onPayload) {
      let channelHandlers = handlers.get(channel);
      if (!channelHandlers) {
        channelHandlers = new Set();
        handlers.set(channel, channelHandlers);
        // When not connected, the channel is listened to on connecting.
        if (client) await listen(client, channel);
      }
      channelHandlers.add(onPayload);
      return async () => {
        channelHandlers.delete(onPayload);
        if (channelHandlers.size > 0 || handlers.get(channel) !== channelHandlers) return;
        handlers.delete(channel);
        if (client) await query(client, `UNLISTEN ${client.escapeIdentifier(channel)}`).catch(() => undefined);
      };
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    catchUp() {
      // The round trip under way may have been answered before this call's notifications arrived.
      nextRoundTrip ??= (roundTrip ?? Promise.resolve())
        .then(nextTurn)
        .then(nextTurn)
        .then(() => {
          nextRoundTrip = null;
          return startRoundTrip();
        });
      return nextRoundTrip;
    },
    ride(read) {
      riders.push(read);
      void listener.catchUp();
    },
  };

  return {
    listener,
    /** Connects; resolves once connected, or at the first failure (it keeps trying in the background). */
    start: () => connect(),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const connection = client;
      client = null;
      await connection?.end().catch(() => undefined);
    },
  };
}

/** The database listener service (`app.databaseListener`), connected while the app runs. */
export const databaseListenerPlugin = fp(
  async (app: FastifyInstance) => {
    const { listener, start, close } = createDatabaseListener(poolOf(app.db).options, app.log);
    app.decorate('databaseListener', listener);
    app.addHook('onReady', start);
    app.addHook('onClose', close);
  },
  { name: 'database-listener' },
);
