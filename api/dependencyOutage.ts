import { CallDeadlineError } from '../temporal/gatewayCalls';
import { AppError } from './errors';

/** Retry-After of a 503 while a dependency is away: PostgreSQL or Temporal restarts take seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** Node's socket errors: the peer is not there, or went away mid-request. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATE class 08 (connection exception), 57P01–57P03 (shutting down, crashed, starting up), 53300 (too many connections). */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
/** gRPC status codes UNAVAILABLE and DEADLINE_EXCEEDED: the Temporal server cannot be reached or did not answer in time. */
const GRPC_UNAVAILABLE = new Set([14, 4]);
/** pg's and knex's own wording when a connection ends or cannot be had; they carry no code. */
const DRIVER_TEXT =
  /(Connection terminated|Client has encountered a connection error|Knex: Timeout acquiring a connection|timeout exceeded when trying to connect)/;

/**
 * Whether an error (or any error in its `cause` chain, an AppError's `options.cause` included) means PostgreSQL or Temporal is unreachable right now,
 * rather than a defect: the answer is then a 503 the client may retry, not a 500.
 */
export function isDependencyOutage(error: unknown): boolean {
  // Duck-typed rather than `instanceof Error`: errors made by Node's own modules belong to another realm under jest.
  let current = error as
    { code?: unknown; name?: unknown; message?: unknown; details?: unknown; cause?: unknown; options?: { cause?: unknown } } | null | undefined;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, name, message } = current;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code))) return true;
    if (typeof code === 'number' && GRPC_UNAVAILABLE.has(code) && 'details' in current) return true;
    if (current instanceof CallDeadlineError || name === 'KnexTimeoutError' || (typeof message === 'string' && DRIVER_TEXT.test(message))) return true;
    current = (current.cause ?? current.options?.cause) as typeof current;
  }
  return false;
}

/** The one answer to a dependency outage, in every area's error format: 503 `SERVICE_UNAVAILABLE` with `Retry-After`. */
export function serviceUnavailable(cause: unknown): AppError {
  return new AppError(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable; retry shortly', {
    headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
    cause,
  });
}
