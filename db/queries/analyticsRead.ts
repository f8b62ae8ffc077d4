import type { Db } from '../knex';

/** SQLSTATE `query_canceled`: what PostgreSQL raises when `statement_timeout` cancels a statement. */
export const QUERY_CANCELED = '57014';

/**
 * Runs an analytics read in a transaction whose statements PostgreSQL cancels after `timeoutMs` (`SET LOCAL`, through
 * `set_config(…, true)`, so the limit ends with the transaction and never stays on the pooled connection). A figure over
 * a history too large for its query then frees its connection and its CPU instead of holding them for minutes; the
 * caller answers the cancellation (`QUERY_CANCELED`).
 */
export async function withStatementTimeout<T>(db: Db, timeoutMs: number, read: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(`SELECT set_config('statement_timeout', ?, true)`, [`${timeoutMs}ms`]);
    return read(trx);
  });
}

/** Whether an error (or its cause) is a statement PostgreSQL cancelled. */
export function isQueryCanceled(error: unknown): boolean {
  let current = error as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    if (current.code === QUERY_CANCELED) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * Runs reads one after another: a figure read holds one transaction, hence one connection, and pg queues (and warns
 * about, and will refuse) a query sent while the connection is still answering another.
 */
export async function inTurn<T extends readonly unknown[]>(...reads: { [K in keyof T]: () => PromiseLike<T[K]> }): Promise<T> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
