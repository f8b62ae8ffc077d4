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
