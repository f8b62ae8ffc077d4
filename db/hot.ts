import type { Knex } from 'knex';
import type { QueryResultRow } from 'pg';
import type { Db } from './knex';

/**
 * A statement run often enough to be worth a server-side prepared plan per connection. It names the columns it
 * returns: a prepared `*` fails ("cached plan must not change result type") once a migration adds a column.
 */
export interface HotStatement {
  /** Unique per SQL text: PostgreSQL keeps the parsed plan under this name on each pooled connection. */
  name: string;
  text: string;
}

interface PgConnection {
  query<R extends QueryResultRow>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/**
 * Runs a prepared statement on a connection of the knex pool, without knex's query building: the hot paths
 * (single-event ingest, rate-limit leases, cache misses) spend their time in PostgreSQL rather than in
 * compiling SQL, and PostgreSQL skips parsing and planning after each connection's first use. Values are
 * bound parameters ($1…), never interpolated. Inside a knex transaction it runs on the transaction's own
 * connection. A connection that fails is marked by knex's own listeners and dropped by the pool.
 *
 * @example const rows = await hotQuery<{ id: string }>(db, FIND_KEY, [hash])
 */
export async function hotQuery<R extends QueryResultRow>(db: Db | Knex.Transaction, statement: HotStatement, values: unknown[]): Promise<R[]> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    const result = await connection.query<R>({ name: statement.name, text: statement.text, values });
    return result.rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * A statement written with knex's `?` placeholders, numbered as PostgreSQL's `$1…$n` in order: hot statements built
 * from the same fragments as knex queries. The text must not use `?` otherwise (jsonb's `?` operators, strings).
 */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
