/**
 * The error body an area speaks (DESIGN.md "Error bodies"):
 * - `text`: `{ success: false, error: "<text>" }` (key management)
 * - `coded`: `{ success: false, error: { code, message, details? } }` (data API, gateway, analytics, workflows, connections)
 * - `team`: `{ success: false, code, error: "<text>" }` (team management)
 * - `oauth`: `{ error, error_description }` (token, user and logout endpoints)
 * - `jsonrpc`: a JSON-RPC 2.0 error object (MCP)
 */
export type ErrorFormat = 'text' | 'coded' | 'team' | 'oauth' | 'jsonrpc';

const AREA_FORMATS: Array<[prefix: string, format: ErrorFormat]> = [
  ['/api-keys', 'text'],
  ['/platform-api', 'team'],
  ['/auth/v1/token', 'oauth'],
  ['/auth/v1/user', 'oauth'],
  ['/auth/v1/logout', 'oauth'],
  ['/mcp-server', 'jsonrpc'],
];

/** The error format for a request path (after the `/functions/v1` prefix is stripped). */
export function errorFormatFor(path: string): ErrorFormat {
  for (const [prefix, format] of AREA_FORMATS) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return format;
  }
  return 'coded';
}

export const FUNCTIONS_PREFIX = '/functions/v1';
