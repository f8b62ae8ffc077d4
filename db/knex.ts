import knex, { type Knex } from 'knex';

export type Db = Knex;

/**
 * Creates the knex instance for PostgreSQL. Timestamps come back as `Date`, bigint counts as strings
 * (pg's default), and every connection works in UTC so `now()` and ISO strings agree.
 */
export function createDb(databaseUrl: string, options: { poolMax?: number; applicationName?: string } = {}): Db {
  return knex({
    client: 'pg',
    connection: { connectionString: databaseUrl, application_name: options.applicationName ?? 'operator-platform' },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      afterCreate: (
        connection: { query: (sql: string, cb: (error: Error | null) => void) => void },
        done: (error: Error | null, connection: unknown) => void,
      ) => {
        connection.query("SET TIME ZONE 'UTC'", (error) => done(error, connection));
      },
    },
    acquireConnectionTimeout: 10_000,
    // Failures surface as rejected queries, handled (and logged without values) by the caller.
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
  });
}
