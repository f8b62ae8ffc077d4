import type { Context, Middleware } from 'koa';
import { lastDays, parseRange, type DayRange } from '../../core/analyticsParams';
import type { Db } from '../../db/knex';
import { isQueryCanceled, withStatementTimeout } from '../../db/queries/analyticsRead';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticate, operatorOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import type { FieldProblem } from '../middleware/validate';

/** Analytics accepts an API key or a session JWT; any failure is 401 `UNAUTHORIZED`. */
export function analyticsAuth(deps: AppDeps) {
  return authenticate(deps, {
    accept: ['apiKey', 'session'],
    onFailure: (reason) =>
      new AppError(
        401,
        'UNAUTHORIZED',
        reason === 'missing' ? 'Missing API key or session token' : reason === 'revoked' ? 'Credentials have been revoked' : 'Invalid API key or session token',
      ),
  });
}

/** `format=csv` is an export (5/min); every other read counts as a read (200/min). */
export function readOrExportLimit(deps: AppDeps): Middleware {
  const read = rateLimit(deps.rateLimits, 'analytics:read');
  const exportLimit = rateLimit(deps.rateLimits, 'analytics:export');
  return (ctx, next) => (ctx.query.format === 'csv' ? exportLimit(ctx, next) : read(ctx, next));
}

/** Query problems: a missing `entity_type` is `MISSING_FILTER`, anything else `INVALID_PARAM` naming the fields. */
export function queryError(result: { missing: string[]; problems: FieldProblem[] }): AppError {
  if (result.missing.includes('entity_type')) return new AppError(400, 'MISSING_FILTER', 'entity_type is required', { details: result.problems });
  const summary = result.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return new AppError(400, 'INVALID_PARAM', `Invalid parameter: ${summary}`, { details: result.problems });
}

/** The reporting scope: `currency` from the query, else the operator's reporting currency. */
export async function scopeOf(deps: AppDeps, ctx: Context, currency: string | undefined): Promise<AnalyticsScope> {
  const operatorId = operatorOf(ctx);
  const { reportingCurrency } = await deps.settings.of(operatorId);
  return { operatorId, currency: currency ?? reportingCurrency, reportingCurrency };
}

/** `range` as whole UTC days, or 400 `INVALID_PARAM`. */
export function rangeOf(value: string | undefined, fallback: DayRange): DayRange {
  const range = parseRange(value, new Date(), fallback);
  if (!range)
    throw new AppError(400, 'INVALID_PARAM', 'Invalid parameter: range must be 7d, 14d, 30d, 90d or <start>:<end> ISO dates', {
      details: [{ field: 'range', message: 'invalid range' }],
    });
  return range;
}

/** `active_players_today` counts players active in the last 7 days (spec 4.4). */
export const activeWindow = (): DayRange => lastDays(7, new Date());

/** Retry-After of a `QUERY_TIMEOUT`: the same figure may fit once the database is less busy. */
export const QUERY_TIMEOUT_RETRY_AFTER_SECONDS = 30;

/**
 * Runs a read of figures under `ANALYTICS_STATEMENT_TIMEOUT_MS`: a statement PostgreSQL cancels is 503 `QUERY_TIMEOUT`
 * with `Retry-After` (docs/analytics.md "Statement timeout"), not a 500 — the request was valid, the figure too costly now —
 * logged as a warning with its code: the cancelled statement's text (which knex puts in the message) stays out of the log.
 */
export async function readFigures<T>(deps: AppDeps, read: (db: Db) => Promise<T>): Promise<T> {
  const timeoutMs = deps.config.ANALYTICS_STATEMENT_TIMEOUT_MS;
  try {
    return await withStatementTimeout(deps.db, timeoutMs, read);
  } catch (error) {
    if (!isQueryCanceled(error)) throw error;
    throw new AppError(
      503,
      'QUERY_TIMEOUT',
      `The figures took longer than ${timeoutMs / 1000} s to compute and were cancelled; retry later or ask for a shorter range`,
      { headers: { 'Retry-After': String(QUERY_TIMEOUT_RETRY_AFTER_SECONDS) }, expected: true },
    );
  }
}
