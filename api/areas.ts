import { JSON_MAX_DEPTH } from '../core/jsonBounds';
import type { AppError } from './errors';
import type { FieldProblem } from './middleware/validate';

/**
 * The error body an area speaks (DESIGN.md "Error bodies"), declared with the area (`defineArea({ errorFormat })`):
 * - `text`: `{ success: false, error: "<text>" }` (key management)
 * - `coded`: `{ success: false, error: { code, message, details? } }` (data API, gateway, analytics, workflows, connections)
 * - `team`: `{ success: false, code, error: "<text>" }` (team management)
 * - `oauth`: `{ error, error_description }` (token, user and logout endpoints)
 * - `jsonrpc`: a JSON-RPC 2.0 error object (MCP)
 */
export type ErrorFormat = 'text' | 'coded' | 'team' | 'oauth' | 'jsonrpc';

/** The 4xx a validation failure becomes in an area or endpoint (`defineArea({ inputError })`). */
export type InputError = (result: { missing: string[]; problems: FieldProblem[] }) => AppError;

/**
 * Values declared per path prefix (an area's prefix, or one endpoint's full path) at import, so a table is complete
 * before the app serves and a request can be answered by its path before routing; the longest prefix a path falls
 * under wins.
 */
class PrefixTable<T> {
  private readonly entries: Array<[prefix: string, value: T]> = [];

  constructor(private readonly what: string) {}

  declare(prefix: string, value: T): void {
    const known = this.entries.find(([existing]) => existing === prefix);
    if (known && known[1] !== value) throw new Error(`${prefix}: two different ${this.what}s declared`);
    if (known) return;
    this.entries.push([prefix, value]);
    this.entries.sort(([a], [b]) => b.length - a.length);
  }

  /** The value for a request path (after the `/functions/v1` prefix is stripped) or a documented path. */
  lookup(path: string): T | undefined {
    return this.entries.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1];
  }
}

const errorFormats = new PrefixTable<ErrorFormat>('error format');
const inputErrors = new PrefixTable<InputError>('input error');
const bodyDepths = new PrefixTable<number>('body depth');
const formBodies = new PrefixTable<true>('form body');

/** Records the error format of every path under `prefix`: errors raised before routing (a malformed body, an unknown path) speak it too. */
export const declareErrorFormat = (prefix: string, format: ErrorFormat): void => errorFormats.declare(prefix, format);
export const errorFormatFor = (path: string): ErrorFormat => errorFormats.lookup(path) ?? 'coded';

/** Records how a validation failure under `prefix` is answered, so that the body parser's refusals speak it too. */
export const declareInputError = (prefix: string, inputError: InputError): void => inputErrors.declare(prefix, inputError);
export const inputErrorFor = (path: string): InputError | undefined => inputErrors.lookup(path);

/** Records a deeper JSON nesting bound than `JSON_MAX_DEPTH` for the bodies of the paths under `prefix`. */
export const declareBodyDepth = (prefix: string, depth: number): void => bodyDepths.declare(prefix, depth);
export const bodyDepthFor = (path: string): number => bodyDepths.lookup(path) ?? JSON_MAX_DEPTH;

/** Records that the paths under `prefix` also take `application/x-www-form-urlencoded` bodies (OAuth's token endpoint). */
export const declareFormBody = (prefix: string): void => formBodies.declare(prefix, true);
export const acceptsFormBody = (path: string): boolean => formBodies.lookup(path) === true;

export const FUNCTIONS_PREFIX = '/functions/v1';
