import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

const dialect = new PgDialect();

/**
 * Runs a statement as a named prepared statement of the connection it runs on, named by its text,
 * and answers its rows as `db.execute` does. PostgreSQL plans the first five executions for their
 * values, and from then on reuses one plan made for any value when it costs no more than those:
 * a list page joining products to categories and sellers took longer to plan than to read. Only for statements whose best plan does not depend on the values they are given: a
 * plan made for any value cannot tell a rare word or a small town from a common one (decision 30).
 * Each connection keeps each text it ran prepared, so the texts must be few: values go in
 * parameters, never in the text.
 */
export async function executePrepared<Row extends Record<string, unknown>>(db: Executor, statement: SQL): Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const name = `prepared_${createHash('sha1').update(query.sql).digest('base64url')}`;
  const { rows } = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] };
  return rows;
}

/**
 * A value a prepared statement compares with, out of the planner's sight in a subquery of its
 * own. Seen, a cursor's position or a price bound makes PostgreSQL cost a plan for any value (as if
 * a third of the rows passed) above the plan for the value given, and keep planning for each;
 * out of sight, every plan is costed alike, and the index scan is the same (decision 30).
 */
export const outOfPlannersSight = (value: SQL): SQL => sql`(select ${value})`;
