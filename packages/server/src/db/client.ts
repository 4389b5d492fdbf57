import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgColumn } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { announceAfterCommits } from './announcements.ts';
import * as schema from './schema/index.ts';

export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Database | Transaction;

/**
 * Settings of every connection the app opens. No parallel workers: a request reads a page, not a
 * table, and starting workers costs far more than the statement's own work (decision 30); the
 * cores are better left to the other requests. No synchronized scans: a sequential scan of a large
 * table would otherwise start wherever another one is, so facet counts cut off at their bound
 * (decision 27) would give another lower bound for the same search at every request. No
 * compiling just in time: a PostgreSQL built with LLVM compiles any statement it costs above
 * 100,000, and the stored counts a search's words are read from are costed so (their subqueries,
 * as if for many rows) though they read a few: compiling took many times the work itself, at
 * each new search (decision 30).
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c synchronize_seqscans=off -c jit=off';

// numeric comes back as text so money keeps its exact value; repositories convert at the edge.
export function createDatabase(connectionString: string, max = 10) {
  // While the database cannot be reached a request fails after this long instead of waiting.
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000, options: SESSION_OPTIONS });
  pool.on('error', () => {
    // An idle client lost its connection (the server restarted); the pool replaces it.
  });
  pool.on('connect', (client) => {
    client.on('error', () => {
      // A checked-out client lost its connection between two queries; its next query fails, and
      // the pool discards it when it is released. Without a listener the error would end the process.
    });
  });
  const db = drizzle(pool, { schema });
  transactOnCheckedOutConnections(db, pool);
  announceAfterCommits(db);
  return { db, pool };
}

/**
 * Runs each transaction on a connection checked out here and given back here, whatever fails.
 * Drizzle's own transaction on a pool sends BEGIN before its `try`, so a BEGIN that fails (the
 * connection lost at that moment, as when the database restarts) never gives its connection back:
 * every outage would shrink the pool for good, and closing it would wait forever. Drizzle runs the
 * transaction on a connection it is handed as it would on the pool, without giving it back.
 */
function transactOnCheckedOutConnections(db: Database, pool: pg.Pool): void {
  // One handle per connection, made on its first transaction: the pool keeps its connections.
  const handles = new WeakMap<pg.PoolClient, Database>();
  db.transaction = (async (run, config) => {
    const connection = await pool.connect();
    try {
      let handle = handles.get(connection);
      if (!handle) {
        handle = drizzle(connection, { schema }) as unknown as Database;
        handles.set(connection, handle);
      }
      return await handle.transaction(run, config);
    } finally {
      // A connection that was lost is not queryable any more, and the pool discards it.
      connection.release();
    }
  }) as Database['transaction'];
}

/** The connection pool behind a database handle. */
export function poolOf(db: Database): pg.Pool {
  return (db as Database & { $client: pg.Pool }).$client;
}

/** The same server's connection string for another database on it. */
export function withDatabaseName(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The column list of a hand-written insert: its names alone (a column in `sql` renders with its table, which an insert refuses). */
export const insertColumns = (...columns: PgColumn[]): SQL => sql.join(columns.map((column) => sql.identifier(column.name)), sql`, `);
