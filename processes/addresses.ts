import type { Config } from '../core/config';

/**
 * Where PostgreSQL is: `DATABASE_URL`, else the embedded server `npm start` runs. Kept apart from the app's wiring
 * so the worker process reads it without loading Koa.
 */
export function databaseUrlOf(config: Config): string {
  return config.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/operator_platform`;
}

/** Where Temporal's frontend is: `TEMPORAL_ADDRESS`, else the dev server `npm start` runs. */
export function temporalAddressOf(config: Config): string {
  return config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`;
}
