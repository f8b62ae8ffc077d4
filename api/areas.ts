/**
 * The error body an area speaks (DESIGN.md "Error bodies"), declared with the area (`defineArea({ errorFormat })`):
 * - `text`: `{ success: false, error: "<text>" }` (key management)
 * - `coded`: `{ success: false, error: { code, message, details? } }` (data API, gateway, analytics, workflows, connections)
 * - `team`: `{ success: false, code, error: "<text>" }` (team management)
 * - `oauth`: `{ error, error_description }` (token, user and logout endpoints)
 * - `jsonrpc`: a JSON-RPC 2.0 error object (MCP)
 */
export type ErrorFormat = 'text' | 'coded' | 'team' | 'oauth' | 'jsonrpc';

/** Path prefixes and the format their areas or endpoints declared, longest first; everything else is `coded`. */
const declared: Array<[prefix: string, format: ErrorFormat]> = [];

/**
 * Records the error format of every path under `prefix` (an area's prefix, or one endpoint's full path). Areas declare
 * at import, so the table is complete before the app serves: errors raised before routing (a malformed body, an
 * unknown path under the prefix) speak it too.
 */
export function declareErrorFormat(prefix: string, format: ErrorFormat): void {
  const known = declared.find(([existing]) => existing === prefix);
  if (known && known[1] !== format) throw new Error(`${prefix}: declared both as ${known[1]} and ${format}`);
  if (known) return;
  declared.push([prefix, format]);
  declared.sort(([a], [b]) => b.length - a.length);
}

/** The error format for a request path (after the `/functions/v1` prefix is stripped) or a documented path. */
export function errorFormatFor(path: string): ErrorFormat {
  for (const [prefix, format] of declared) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return format;
  }
  return 'coded';
}

export const FUNCTIONS_PREFIX = '/functions/v1';
