import { z } from 'zod';
import { declareFormBody } from '../areas';
import type { AppDeps } from '../deps';
import { oauth, wellKnown } from './area';
import { bearerSession, jsonContent, OAuthError } from '../openapi/registry';
import { authorizeHandler } from './authorize';
import { registerHandler } from './clients';
import { decideHandler, getRequestHandler } from './consent';
import { getSettingsHandler, listHostsHandler, putSettingsHandler, revokeHostHandler } from './hosts';
import { resourceMetadataHandler, serverMetadataHandler } from './metadata';
import * as examples from './examples';
import { ConsentRequestView, DecisionResult, HostsList, OAuthSettingsView } from './schema';
import { revokeHandler, tokenHandler } from './token';

const limited = jsonContent(OAuthError, 'RATE_LIMITED, with Retry-After');
const badId = jsonContent(OAuthError, 'invalid_request: the id is malformed');
const metadata = (description: string, example: unknown) => jsonContent(z.record(z.string(), z.unknown()), description, example);

for (const path of ['/oauth-protected-resource', '/oauth-protected-resource/mcp-server']) {
  wellKnown.endpoint({
    method: 'get',
    path,
    summary: 'Protected-resource metadata of the MCP server (RFC 9728)',
    security: 'none',
    guards: ['limitByAddress'],
    responses: { 200: metadata('resource, authorization_servers, scopes_supported', examples.resourceMetadata), 429: limited },
    ...resourceMetadataHandler,
  });
}
for (const path of ['/oauth-authorization-server', '/openid-configuration']) {
  wellKnown.endpoint({
    method: 'get',
    path,
    summary: 'Authorization-server metadata for MCP hosts (RFC 8414)',
    security: 'none',
    guards: ['limitByAddress'],
    responses: { 200: metadata('issuer, endpoints, S256, grants, client_id_metadata_document_supported', examples.serverMetadata), 429: limited },
    ...serverMetadataHandler,
  });
}

declareFormBody('/oauth/token');
declareFormBody('/oauth/revoke');
declareFormBody('/oauth/register');

const redirect = { description: 'To the consent page, or back to the host with error, state and iss' };
const sessionOnly = [{ [bearerSession.name]: [] }];

oauth.endpoint({
  method: 'get',
  path: '/authorize',
  summary: 'Authorization request of an MCP host (PKCE S256, resource = the MCP server)',
  security: 'none',
  guards: ['limitByAddress'],
  responses: { 302: redirect, 400: jsonContent(OAuthError, 'invalid_request or invalid_client: no redirect to an unchecked URI'), 429: limited },
  ...authorizeHandler,
});

const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
  refresh_token: z.string(),
  scope: z.string(),
});

oauth.endpoint({
  method: 'post',
  path: '/token',
  summary: 'Token endpoint: authorization_code (PKCE) and refresh_token (rotating)',
  security: 'none',
  guards: ['limitByAddress'],
  request: { body: { description: 'application/x-www-form-urlencoded or JSON', example: examples.tokenBody } },
  responses: {
    200: jsonContent(tokenResponse, 'Tokens', examples.tokens),
    400: jsonContent(OAuthError, 'invalid_request, invalid_grant, invalid_client, invalid_target or unsupported_grant_type'),
    429: limited,
  },
  ...tokenHandler,
});

oauth.endpoint({
  method: 'post',
  path: '/revoke',
  summary: 'Token revocation (RFC 7009): the token’s grant ends',
  security: 'none',
  guards: ['limitByAddress'],
  request: { body: { description: 'token, token_type_hint, client_id', example: examples.revokeBody } },
  responses: { 200: metadata('Revoked, or the token was unknown', {}), 400: jsonContent(OAuthError, 'invalid_request'), 429: limited },
  ...revokeHandler,
});

oauth.endpoint({
  method: 'post',
  path: '/register',
  summary: 'Dynamic Client Registration (RFC 7591) of a public MCP host',
  security: 'none',
  guards: ['limitRegistrations'],
  request: {
    body: { schema: z.record(z.string(), z.unknown()), description: 'redirect_uris, client_name, grant_types, response_types', example: examples.registerBody },
  },
  responses: {
    201: metadata('client_id and the registered metadata; token_endpoint_auth_method none', examples.registered),
    400: jsonContent(OAuthError, 'invalid_redirect_uri or invalid_client_metadata'),
    429: limited,
  },
  ...registerHandler,
});

oauth.endpoint({
  method: 'get',
  path: '/requests/:id',
  summary: 'An authorization request as the consent page shows it',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  responses: {
    200: jsonContent(ConsentRequestView, 'The host, its redirect host, scopes, tools and what this member may approve', examples.consentRequest),
    400: badId,
    401: jsonContent(OAuthError, 'invalid_token'),
    404: jsonContent(OAuthError, 'invalid_request'),
    429: limited,
  },
  ...getRequestHandler,
});

oauth.endpoint({
  method: 'post',
  path: '/requests/:id/decision',
  summary: 'Approve or deny an authorization request',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  request: { body: { description: 'decision approve or deny; scopes to narrow', example: examples.decisionBody } },
  responses: {
    200: jsonContent(DecisionResult, 'Where to send the browser: the host with code (or error), state and iss', examples.decision),
    401: jsonContent(OAuthError, 'invalid_token'),
    403: jsonContent(OAuthError, 'access_denied: OAuth hosts turned off, or a Member approving write where the organisation forbids it'),
    400: jsonContent(OAuthError, 'invalid_request: a malformed id, decision or scope'),
    404: jsonContent(OAuthError, 'invalid_request: unknown, expired or decided'),
    429: limited,
  },
  ...decideHandler,
});

oauth.endpoint({
  method: 'get',
  path: '/hosts',
  summary: 'The organisation’s connected MCP hosts (grants), with last use',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  responses: { 200: jsonContent(HostsList, 'The connected hosts', examples.hosts), 401: jsonContent(OAuthError, 'invalid_token'), 429: limited },
  ...listHostsHandler,
});

oauth.endpoint({
  method: 'delete',
  path: '/hosts/:id',
  summary: 'Disconnect a host: its grant and every token end',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  responses: {
    204: { description: 'Revoked' },
    400: badId,
    401: jsonContent(OAuthError, 'invalid_token'),
    403: jsonContent(OAuthError, 'FORBIDDEN'),
    404: jsonContent(OAuthError, 'NOT_FOUND'),
    429: limited,
  },
  ...revokeHostHandler,
});

oauth.endpoint({
  method: 'get',
  path: '/settings',
  summary: 'The organisation’s rules for OAuth hosts',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  responses: {
    200: jsonContent(OAuthSettingsView, 'enabled, members_may_write, workflow_allowlist', examples.settings),
    401: jsonContent(OAuthError, 'invalid_token'),
    429: limited,
  },
  ...getSettingsHandler,
});

oauth.endpoint({
  method: 'put',
  path: '/settings',
  summary: 'Change the organisation’s rules for OAuth hosts (Owner, Admin)',
  security: sessionOnly,
  guards: ['limitByAddress', 'member'],
  request: { body: { description: 'enabled, members_may_write, workflow_allowlist (null: every exposed workflow)', example: examples.settingsBody } },
  responses: {
    200: jsonContent(OAuthSettingsView, 'The settings', examples.settings),
    400: jsonContent(OAuthError, 'invalid_request: names the field'),
    401: jsonContent(OAuthError, 'invalid_token'),
    403: jsonContent(OAuthError, 'FORBIDDEN'),
    429: limited,
  },
  ...putSettingsHandler,
});

export const createWellKnownRouter = (deps: AppDeps) => wellKnown.router(deps);
export const createOAuthRouter = (deps: AppDeps) => oauth.router(deps);
