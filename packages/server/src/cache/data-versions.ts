import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The tables whose changes are announced on the `data_changes` channel (migrations 0006, 0009
 * and 0011; refresh tokens only when a session ends).
 */
export type WatchedTable = 'categories' | 'products' | 'users' | 'search_terms' | 'reviews' | 'refresh_tokens';

export const DATA_CHANGES_CHANNEL = 'data_changes';

export interface DataVersions {
  /**
   * The versions of these tables as of the request's arrival: every change committed before it
   * has been heard. Something computed under these versions stays right while they are current.
   * Null while the listening connection is down: then nothing may be cached or reused. A request
   * outside Fastify passes `{ caughtUp: null }`.
   */
  current(request: Pick<FastifyRequest, 'caughtUp'>, tables: readonly WatchedTable[]): Promise<string | null>;
  /** The versions now, without waiting: to tell whether something cached is still current. */
  now(tables: readonly WatchedTable[]): string;
  /** Called when notifications may have been missed, so everything cached must be dropped. */
  onForget(handler: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    dataVersions: DataVersions;
  }
  interface FastifyRequest {
    /** This request's catch-up with the database's notifications, shared by everything it reads. */
    caughtUp: Promise<boolean> | null;
  }
}

/**
 * Every app server counts, per watched table, the changes it has heard of by PostgreSQL NOTIFY.
 * A per-server cache keeps what it computed with the versions it computed it under, and reuses it
 * only while they are current. Before trusting its versions, a request makes sure the server has
 * heard of every transaction committed before it arrived (one round trip on the listening
 * connection, shared by the requests that arrive together, and by everything one request reads).
 */
export const dataVersionsPlugin = fp(
  async (app: FastifyInstance) => {
    const tableVersions = new Map<string, number>();
    const forgetHandlers: Array<() => void> = [];
    /** Bumped when notifications may have been missed: nothing computed before is current. */
    let epoch = 0;

    app.decorateRequest('caughtUp', null);
    await app.databaseListener.subscribe(DATA_CHANGES_CHANNEL, (table) => {
      tableVersions.set(table, (tableVersions.get(table) ?? 0) + 1);
    });
    app.databaseListener.onReconnect(() => {
      epoch += 1;
      for (const handler of forgetHandlers) handler();
    });

    const now = (tables: readonly WatchedTable[]) => `${epoch}:${tables.map((table) => tableVersions.get(table) ?? 0).join('.')}`;
    app.decorate('dataVersions', {
      async current(request, tables) {
        request.caughtUp ??= app.databaseListener.catchUp();
        return (await request.caughtUp) ? now(tables) : null;
      },
      now,
      onForget: (handler) => void forgetHandlers.push(handler),
    } satisfies DataVersions);
  },
  { name: 'data-versions', dependencies: ['database-listener'] },
);
