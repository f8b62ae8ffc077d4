import { createHash, timingSafeEqual } from 'node:crypto';
import type { ToolAnnotations } from './automations/nodes/module';

/**
 * Rules of the OAuth 2.1 authorization server for MCP (docs/mcp.md "Authorization (OAuth 2.1)"), free of I/O: the
 * scopes, the token prefixes and lifetimes, PKCE, and which redirect URIs a host may register.
 */

/** Tools whose every action only reads: enough to list tools and call those. */
export const SCOPE_READ = 'mcp:tools.read';
/** Tools with real effects (anything not read-only): a superset of read. */
export const SCOPE_WRITE = 'mcp:tools.write';
export const MCP_SCOPES = [SCOPE_READ, SCOPE_WRITE] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/** Prefixes that route a bearer token before it is looked up (an API key is `svc_live_`). */
export const ACCESS_TOKEN_PREFIX = 'mcpat_';
export const REFRESH_TOKEN_PREFIX = 'mcprt_';
export const CODE_PREFIX = 'mcpac_';
export const REQUEST_PREFIX = 'oar';
export const DCR_CLIENT_PREFIX = 'mcpc';

/** Lifetimes, in seconds. */
export const LIFETIMES = {
  code: 60,
  request: 600,
  accessToken: 3600,
  refreshToken: 30 * 86_400,
  /** A dynamically registered client no token or authorization has used for this long is removed. */
  unusedClient: 30 * 86_400,
} as const;

/** Bounds of what a host may send. */
export const BOUNDS = {
  redirectUris: 10,
  uriLength: 2000,
  clientName: 200,
  state: 1000,
  /** A Client ID Metadata Document is read up to this many bytes, for this long. */
  metadataBytes: 5 * 1024,
  metadataTimeoutMs: 5000,
  /** A fetched document is kept this long unless its Cache-Control says less (never under the minimum). */
  metadataMaxTtlSeconds: 86_400,
  metadataMinTtlSeconds: 300,
  metadataDefaultTtlSeconds: 3600,
} as const;

/**
 * The scopes of a request's `scope` parameter: unknown ones are a problem (`invalid_scope`); none asked means read.
 * Write includes read, so a write grant always lists both.
 */
export function parseScopes(raw: string | undefined): McpScope[] | { problem: string } {
  const asked = (raw ?? '').split(' ').filter(Boolean);
  const unknown = asked.filter((scope) => !(MCP_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) return { problem: `unknown scope ${unknown[0]!.slice(0, 60)}; supported: ${MCP_SCOPES.join(' ')}` };
  return asked.includes(SCOPE_WRITE) ? [SCOPE_READ, SCOPE_WRITE] : [SCOPE_READ];
}

/** The scope a tool's call needs: read for a tool whose every action reads, write for anything else. */
export const scopeForTool = (annotations: ToolAnnotations): McpScope => (annotations.readOnlyHint ? SCOPE_READ : SCOPE_WRITE);

/** RFC 7636 S256: BASE64URL(SHA-256(verifier)) equals the challenge; a verifier outside 43–128 unreserved characters fails. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** A code challenge as S256 makes it: 43 base64url characters. */
export const isS256Challenge = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);

/**
 * Why a host may not register `uri` as a redirect URI, or null: https anywhere; http only to a loopback host (any
 * port, RFC 8252 7.3); a private-use scheme of a native host (`cursor://`, `vscode://`, RFC 8252 7.1). Never a
 * fragment, userinfo, or a scheme a browser runs (`javascript:`, `data:`, `file:` …).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > BOUNDS.uriLength) return `is longer than ${BOUNDS.uriLength} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry user information';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? null : 'needs a host';
  if (scheme === 'http') return isLoopbackHost(url.hostname) ? null : 'http is allowed for loopback hosts only (127.0.0.1, [::1], localhost)';
  if (['javascript', 'data', 'file', 'blob', 'about', 'vbscript', 'ftp', 'ws', 'wss'].includes(scheme)) return `the ${scheme} scheme is not allowed`;
  // A native host's private-use scheme: a reverse-DNS name or a short product name, as RFC 8252 7.1 describes.
  return /^[a-z][a-z0-9+.-]{1,63}$/.test(scheme) ? null : 'has an unusable scheme';
}

/**
 * Whether `given` is one of the registered redirect URIs: exact string comparison, except that a loopback http URI
 * matches whatever its port (RFC 8252 7.3: native apps take an ephemeral port at the time of the request).
 */
export function redirectUriRegistered(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return false;
  const portless = (value: URL) => `${value.protocol}//${value.hostname}${value.pathname}${value.search}`;
  return registered.some((candidate) => {
    try {
      const other = new URL(candidate);
      return other.protocol === 'http:' && isLoopbackHost(other.hostname) && portless(other) === portless(url);
    } catch {
      return false;
    }
  });
}

/** A client id that names a Client ID Metadata Document: an https URL with a path (or, where allowed, loopback http). */
export function isMetadataDocumentClientId(clientId: string, allowLoopbackHttp: boolean): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password || url.pathname === '/' || url.pathname === '') return false;
  if (url.protocol === 'https:') return true;
  return allowLoopbackHttp && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** What the consent page shows as where the host sends the member back: the redirect URI's host, or its scheme. */
export function redirectHostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || `${url.protocol}//`;
}

/** `Cache-Control: max-age=N` bounded to the metadata TTL bounds; the default when absent or unreadable. */
export function metadataTtlSeconds(cacheControl: string | undefined): number {
  const maxAge = /max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  const seconds = maxAge === undefined ? BOUNDS.metadataDefaultTtlSeconds : Number(maxAge);
  return Math.min(BOUNDS.metadataMaxTtlSeconds, Math.max(BOUNDS.metadataMinTtlSeconds, seconds));
}
