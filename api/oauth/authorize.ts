import { z } from 'zod';
import { prefixedId } from '../../core/ids';
import { BOUNDS, isS256Challenge, LIFETIMES, parseScopes, REQUEST_PREFIX, redirectUriRegistered } from '../../core/mcpOAuth';
import { insertRequest } from '../../db/queries/oauthClients';
import { AppError } from '../errors';
import { resolveClient } from './clients';
import { oauthUrls } from './urls';
import { oauth } from './area';

export const AuthorizeQuery = z.object({
  response_type: z.string().optional(),
  client_id: z.string().max(BOUNDS.uriLength).optional(),
  redirect_uri: z.string().max(BOUNDS.uriLength).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(BOUNDS.state).optional(),
  scope: z.string().max(500).optional(),
  resource: z.string().max(BOUNDS.uriLength).optional(),
});

/** `redirect_uri` with the given parameters added (RFC 6749 4.1.2: the URI's own query is kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * `GET /oauth/authorize`: checks the client and its redirect URI first — a failure there is answered here (400), never
 * sent to an unchecked URI — then `response_type=code`, an S256 `code_challenge`, the scopes and the `resource`
 * (exactly the MCP resource, RFC 8707), whose failures go back to the host's redirect URI with `iss` (RFC 9207). A
 * valid request is kept 10 minutes and the member is sent to the dashboard's consent page for it.
 */
export const authorizeHandler = oauth.handler({ input: { query: AuthorizeQuery } }, async ({ deps, ctx, input: { query } }) => {
  const client = await resolveClient(deps, query.client_id);
  const redirectUri = query.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri) throw new AppError(400, 'invalid_request', 'redirect_uri is required (the client registered several)');
  if (!redirectUriRegistered(client.redirect_uris, redirectUri)) {
    throw new AppError(400, 'invalid_request', 'redirect_uri is not one the client registered');
  }
  const urls = oauthUrls(deps.config);
  const fail = (error: string, description: string) => {
    ctx.redirect(redirectWith(redirectUri, { error, error_description: description, state: query.state, iss: urls.issuer }));
  };
  if (query.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge || !isS256Challenge(query.code_challenge)) return fail('invalid_request', 'code_challenge (S256, 43 characters) is required');
  if (query.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  const scopes = parseScopes(query.scope);
  if ('problem' in scopes) return fail('invalid_scope', scopes.problem);
  const resource = query.resource ?? urls.resource;
  if (resource !== urls.resource) return fail('invalid_target', `resource must be ${urls.resource}`);
  const id = prefixedId(REQUEST_PREFIX);
  await insertRequest(deps.db, {
    id,
    client_id: client.id,
    redirect_uri: redirectUri,
    state: query.state ?? null,
    code_challenge: query.code_challenge,
    scopes,
    resource,
    ttlSeconds: LIFETIMES.request,
  });
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(`${urls.consent}?request=${encodeURIComponent(id)}`);
});
