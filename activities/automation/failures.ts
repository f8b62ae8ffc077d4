import { ApplicationFailure } from '@temporalio/common';

/**
 * A node failure that retrying cannot fix (a 4xx, a validation error, a missing record): the run fails
 * at once with `code` as the node's error code.
 *
 * @example throw nodeFailure('ENTITY_NOT_FOUND', 'No entity with externalId p-1')
 */
export function nodeFailure(code: string, message: string, details?: unknown): ApplicationFailure {
  return ApplicationFailure.create({ nonRetryable: true, type: code, message, details: details === undefined ? undefined : [details] });
}

/**
 * A transient failure Temporal retries (a 5xx, 408, 429 or a network error): `code` is the failure's type, so a run's
 * live timeline names the last attempt's error without its message (core/automations/liveRun.ts); once retries run
 * out the node's code is still `ACTION_FAILED` (workflows/automation/nodeError.ts).
 *
 * @example throw retryableFailure('HTTP_503', 'HTTP 503 from api.example.com')
 */
export function retryableFailure(code: string, message: string, cause?: unknown): ApplicationFailure {
  return ApplicationFailure.create({ nonRetryable: false, type: code, message, ...(cause instanceof Error ? { cause } : {}) });
}
