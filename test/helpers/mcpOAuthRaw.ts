import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './app';
import { http, type HttpResult } from './http';
import { consentRequestOf, decide } from './mcpOAuth';

/** A host's steps done by hand, each one checkable: PKCE pair, DCR, authorize, decide, token. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT = 'http://127.0.0.1:40111/callback';

export async function registerClient(app: TestApp, body: Record<string, unknown> = {}): Promise<HttpResult> {
  return http(`${app.url}/oauth/register`, { body: { client_name: 'Raw host', redirect_uris: [REDIRECT], ...body } });
}

export function authorizeUrl(app: TestApp, clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${app.url}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'raw-state',
    resource: `${app.url}/mcp-server`,
    scope: 'mcp:tools.read mcp:tools.write',
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

/** `POST /oauth/token` form-encoded, as hosts send it. */
export async function tokenRequest(app: TestApp, fields: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${app.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export interface RawGrant {
  clientId: string;
  verifier: string;
  code: string;
}

/** Registers a client and has `sessionToken`'s member approve it (with `scopes`); returns the code, not yet exchanged. */
export async function approvedCode(app: TestApp, sessionToken: string, scopes?: string[]): Promise<RawGrant> {
  const registered = await registerClient(app);
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
  const clientId = registered.body.client_id as string;
  const { verifier, challenge } = pkcePair();
  const requestId = await consentRequestOf(authorizeUrl(app, clientId, challenge));
  const decided = await decide(app, sessionToken, requestId, { decision: 'approve', ...(scopes ? { scopes } : {}) });
  if (decided.status !== 200) throw new Error(`decide: ${decided.status} ${JSON.stringify(decided.body)}`);
  return { clientId, verifier, code: decided.redirect!.searchParams.get('code')! };
}

export const exchange = (app: TestApp, grant: RawGrant, overrides: Record<string, string> = {}) =>
  tokenRequest(app, {
    grant_type: 'authorization_code',
    code: grant.code,
    code_verifier: grant.verifier,
    client_id: grant.clientId,
    redirect_uri: REDIRECT,
    resource: `${app.url}/mcp-server`,
    ...overrides,
  });

/** Approved and exchanged: the host's first tokens. */
export async function connectedTokens(app: TestApp, sessionToken: string, scopes?: string[]): Promise<{ grant: RawGrant; access: string; refresh: string }> {
  const grant = await approvedCode(app, sessionToken, scopes);
  const tokens = await exchange(app, grant);
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return { grant, access: tokens.body.access_token!, refresh: tokens.body.refresh_token! };
}
