/** One field problem as the API reports it in `details` (`nodes[1].params.expression`, `email`, …). */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A refused or failed request, whatever the area's error shape (coded, key management's text, team,
 * OAuth), so every page shows errors the same way.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }

  /** The problem reported for a field (exact path or a child of it). */
  problemsAt(field: string): FieldProblem[] {
    return this.details.filter((problem) => problem.field === field || problem.field.startsWith(`${field}.`) || problem.field.startsWith(`${field}[`));
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function detailsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is FieldProblem => isRecord(item) && typeof item.field === 'string' && typeof item.message === 'string');
}

/** Reads any of the platform's error bodies into an `ApiFailure`. */
export function failureOf(status: number, body: unknown, headers?: Headers): ApiFailure {
  const retry = Number(headers?.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  if (isRecord(body)) {
    const { error } = body;
    if (isRecord(error) && typeof error.code === 'string')
      return new ApiFailure(status, error.code, String(error.message ?? error.code), detailsOf(error.details), retryAfter);
    if (typeof body.code === 'string' && typeof error === 'string') return new ApiFailure(status, body.code, error, [], retryAfter);
    if (typeof error === 'string' && typeof body.error_description === 'string') return new ApiFailure(status, error, body.error_description, [], retryAfter);
    if (typeof error === 'string') return new ApiFailure(status, `HTTP_${status}`, error, [], retryAfter);
  }
  if (status === 0) return new ApiFailure(0, 'NETWORK', 'The server could not be reached. Check that it is running and try again.');
  return new ApiFailure(
    status,
    `HTTP_${status}`,
    status >= 500 ? 'The server had a problem. Try again in a moment.' : `The request failed (${status}).`,
    [],
    retryAfter,
  );
}

/** Any thrown value as an `ApiFailure` (network errors included). */
export function asFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (error instanceof DOMException && error.name === 'AbortError') return new ApiFailure(0, 'ABORTED', 'The request was cancelled.');
  if (error instanceof TypeError) return failureOf(0, undefined);
  return new ApiFailure(0, 'CLIENT_ERROR', error instanceof Error ? error.message : 'Something went wrong in the page.');
}
