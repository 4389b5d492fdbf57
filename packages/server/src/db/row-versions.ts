import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Where one row stands: its id and the transaction that wrote its current version (PostgreSQL's
 * `xmin`, which every insert and update sets anew). The same ids and versions in the same order
 * mean the same rows, unchanged, in the same places.
 */
export interface RowVersion {
  id: string;
  version: string;
}

/** A row's version: the transaction that wrote it. */
export const rowVersionOf = (table: PgTable) => sql<string>`${table}.xmin::text`;

/**
 * A list of the rows one account owns, newest first, then by id: its table, whose rows they are,
 * its order, and each row's version (`rowVersionOf` its table, unless the list shows more than the
 * row itself, whose versions are then part of it).
 */
export interface OwnedList {
  table: PgTable;
  owner: PgColumn;
  createdAt: PgColumn;
  id: PgColumn;
  version?: SQL<string>;
}
