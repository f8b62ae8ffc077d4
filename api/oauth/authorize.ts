import { z } from 'zod';
import { BOUNDS } from '../../core/mcpOAuth';
import { openAuthorizationRequest } from '../../commands/mcpOAuth/authorizationRequests';
import { AppError } from '../errors';
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
 * `GET /oauth/authorize` (commands/mcpOAuth/authorizationRequests.ts): a missing `client_id`, an unknown client or an
 * unusable redirect URI is answered here (400), never sent to an unchecked URI; any other refusal goes back to the
 * host's redirect URI with `iss` (RFC 9207). An opened request sends the member to the dashboard's consent page for it.
 */
export const authorizeHandler = oauth.handler({ input: { query: AuthorizeQuery } }, async ({ deps, ctx, input: { query } }) => {
  if (!query.client_id) throw new AppError(400, 'invalid_request', 'client_id is required');
  const urls = oauthUrls(deps.config);
  const result = await openAuthorizationRequest(deps, {
    clientId: query.client_id,
    redirectUri: query.redirect_uri,
    responseType: query.response_type,
    codeChallenge: query.code_challenge,
    codeChallengeMethod: query.code_challenge_method,
    state: query.state,
    scope: query.scope,
    resource: query.resource,
    mcpResource: urls.resource,
  });
  if (result.kind === 'redirect_uri_refused') throw new AppError(400, 'invalid_request', result.description);
  if (result.kind === 'refused') {
    ctx.redirect(redirectWith(result.redirectUri, { error: result.error, error_description: result.description, state: query.state, iss: urls.issuer }));
    return;
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(`${urls.consent}?request=${encodeURIComponent(result.requestId)}`);
});
