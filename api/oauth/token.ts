import { z } from 'zod';
import { exchangeCode, refreshTokens, revokeToken } from '../../commands/mcpOAuth/tokens';
import { resolveClient } from '../../commands/mcpOAuth/clients';
import { AppError } from '../errors';
import { oauth } from './area';

const field = z.string().min(1).max(4000).optional();

/** `POST /oauth/token`, form-encoded (RFC 6749) or JSON: every field a string. */
export const TokenBody = z.object({
  grant_type: field,
  code: field,
  redirect_uri: field,
  code_verifier: field,
  client_id: field,
  refresh_token: field,
  resource: field,
  scope: field,
});

export const RevokeBody = z.object({ token: field, token_type_hint: field, client_id: field });

const required = (value: string | undefined, name: string): string => {
  if (!value) throw new AppError(400, 'invalid_request', `${name} is required`);
  return value;
};

/**
 * `POST /oauth/token`: `authorization_code` (with `code_verifier`, `redirect_uri`, `client_id` and, when sent,
 * `resource` equal to the MCP resource) and `refresh_token` (rotating). Public clients only: `client_id` identifies,
 * PKCE proves. Answers are never cached.
 */
export const tokenHandler = oauth.handler({ input: { body: TokenBody } }, async ({ deps, ctx, input: { body } }) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  const clientId = required(body.client_id, 'client_id');
  if (body.grant_type === 'authorization_code') {
    await resolveClient(deps, clientId);
    ctx.body = await exchangeCode(deps, {
      code: required(body.code, 'code'),
      clientId,
      redirectUri: required(body.redirect_uri, 'redirect_uri'),
      verifier: required(body.code_verifier, 'code_verifier'),
      resource: body.resource,
    });
    return;
  }
  if (body.grant_type === 'refresh_token') {
    await resolveClient(deps, clientId);
    ctx.body = await refreshTokens(deps, { refreshToken: required(body.refresh_token, 'refresh_token'), clientId, resource: body.resource });
    return;
  }
  throw new AppError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
});

/** `POST /oauth/revoke` (RFC 7009): 200 whether or not the token was known; a known one ends its grant. */
export const revokeHandler = oauth.handler({ input: { body: RevokeBody } }, async ({ deps, ctx, input: { body } }) => {
  await revokeToken(deps, { token: required(body.token, 'token'), clientId: body.client_id });
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 200;
  ctx.body = {};
});
