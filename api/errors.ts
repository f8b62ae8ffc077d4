/** One error type for every area: a stable code and HTTP status, mapped to each area's body by the error middleware. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      details?: unknown;
      headers?: Record<string, string>;
      cause?: unknown;
      /** A 5xx the platform chose to answer (a bound it enforces), logged as a warning with its code rather than an error with its cause. */
      expected?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static notFound(message = 'Resource not found', code = 'NOT_FOUND'): AppError {
    return new AppError(404, code, message);
  }
}

/** Why authentication failed; each area maps the reason to its own codes (spec 5 and 7.x). */
export type AuthFailure = 'missing' | 'invalid_format' | 'invalid' | 'revoked' | 'session_required' | 'api_key_required';

export class AuthError extends Error {
  /** `credential` is set when a dashboard credential failed, so an area can say so rather than speak of API keys. */
  constructor(
    readonly reason: AuthFailure,
    readonly credential?: 'dashboardCredential',
  ) {
    super(`authentication failed: ${reason}`);
    this.name = 'AuthError';
  }
}
