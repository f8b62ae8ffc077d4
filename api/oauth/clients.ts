import type { z } from 'zod';
import { ClientMetadata, registerClient, SUPPORTED_GRANTS } from '../../commands/mcpOAuth/clients';
import { AppError } from '../errors';
import { oauth } from './area';

const parseProblem = (error: z.ZodError) => {
  const issue = error.issues[0];
  return new AppError(400, 'invalid_client_metadata', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
};

/**
 * `POST /oauth/register` (RFC 7591, commands/mcpOAuth/clients.ts): the body (JSON or a form post) is read raw, so a
 * problem is RFC 7591's `invalid_client_metadata`, not the area's `invalid_request`. The answer restates the
 * registration, `token_endpoint_auth_method` always `none` (RFC 7591 3.2.1 lets the server replace what was asked).
 */
export const registerHandler = oauth.handler({ raw: ['body'] }, async ({ deps, ctx, raw }) => {
  const parsed = ClientMetadata.safeParse(raw.body ?? {});
  if (!parsed.success) throw parseProblem(parsed.error);
  const row = await registerClient(deps, parsed.data);
  ctx.status = 201;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    client_id: row.id,
    client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
    client_name: row.client_name,
    ...(row.client_uri ? { client_uri: row.client_uri } : {}),
    redirect_uris: row.redirect_uris,
    grant_types: SUPPORTED_GRANTS,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
});
