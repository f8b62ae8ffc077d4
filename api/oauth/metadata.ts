import type { Context } from 'koa';
import { MCP_SCOPES } from '../../core/mcpOAuth';
import type { AppDeps } from '../deps';
import { oauthUrls } from './urls';
import { wellKnown } from './area';

/** RFC 9728 protected-resource metadata of `/mcp-server`, at both well-known forms (root and path-suffixed). */
export function protectedResourceMetadata(deps: AppDeps) {
  const urls = oauthUrls(deps.config);
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Operator Platform MCP server',
  };
}

/** RFC 8414 authorization-server metadata, served as OpenID Connect discovery too (clients of MCP 2025-11-25 try both). */
export function authorizationServerMetadata(deps: AppDeps) {
  const urls = oauthUrls(deps.config);
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorization,
    token_endpoint: urls.token,
    registration_endpoint: urls.registration,
    revocation_endpoint: urls.revocation,
    scopes_supported: [...MCP_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

const send = (ctx: Context, body: unknown) => {
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.body = body;
};

export const resourceMetadataHandler = wellKnown.handler({}, ({ deps, ctx }) => send(ctx, protectedResourceMetadata(deps)));
export const serverMetadataHandler = wellKnown.handler({}, ({ deps, ctx }) => send(ctx, authorizationServerMetadata(deps)));
