import 'koa';

declare module 'koa' {
  interface Request {
    /** Parsed JSON body, set by the jsonBody middleware; `undefined` when there was none. */
    body?: unknown;
    /** The body's exact bytes, for signature checks. */
    rawBody?: Buffer;
  }
}
