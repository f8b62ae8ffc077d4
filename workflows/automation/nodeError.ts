import { ApplicationFailure, isCancellation, TemporalFailure } from '@temporalio/workflow';
import type { RunError } from '../../core/automations/types';

/** A node failure raised in workflow code (an expression that cannot be evaluated, a provider refusal). */
export class NodeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly output?: unknown,
  ) {
    super(message);
    this.name = 'NodeError';
  }
}

/**
 * The recorded error of a failed node: the code of the non-retryable `ApplicationFailure` an activity
 * threw (`HTTP_404`, `ENTITY_NOT_FOUND`, a gateway code…), `ACTION_FAILED` when retries ran out on a
 * transient fault or a timeout, `EXPRESSION_ERROR` for an expression that failed in workflow code. Cancellation is not a node failure and is rethrown.
 */
export function nodeErrorOf(error: unknown, nodeId: string): RunError & { output?: unknown } {
  if (isCancellation(error)) throw error;
  if (error instanceof NodeError) return { code: error.code, message: error.message, nodeId, ...(error.output === undefined ? {} : { output: error.output }) };
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ApplicationFailure) {
      const code = current.nonRetryable && current.type ? current.type : 'ACTION_FAILED';
      const output = current.details?.[0];
      return { code, message: current.message, nodeId, ...(output === undefined ? {} : { output }) };
    }
    current = current.cause;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: error instanceof TemporalFailure ? 'ACTION_FAILED' : 'EXPRESSION_ERROR', message, nodeId };
}
