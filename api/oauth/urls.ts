import type { Config } from '../../core/config';

/**
 * The public addresses of the authorization server and of the MCP resource, from `APP_URL` (the one URL the platform
 * is reached at): the issuer is `APP_URL` itself, the resource `APP_URL/mcp-server`, exactly as a host must send it.
 */
export interface OAuthUrls {
  issuer: string;
  resource: string;
  resourceMetadata: string;
  authorization: string;
  token: string;
  registration: string;
  revocation: string;
  consent: string;
}

export function oauthUrls(config: Pick<Config, 'appUrl'>): OAuthUrls {
  const base = config.appUrl;
  return {
    issuer: base,
    resource: `${base}/mcp-server`,
    resourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp-server`,
    authorization: `${base}/oauth/authorize`,
    token: `${base}/oauth/token`,
    registration: `${base}/oauth/register`,
    revocation: `${base}/oauth/revoke`,
    consent: `${base}/consent`,
  };
}

/** RFC 6750 3 / RFC 9728 5.1: the challenge of a 401 or 403 from `/mcp-server`, pointing at the resource metadata. */
export function bearerChallenge(
  config: Pick<Config, 'appUrl'>,
  error?: { code: 'invalid_token' | 'insufficient_scope'; description?: string; scope?: string },
): string {
  const parts = [`resource_metadata="${oauthUrls(config).resourceMetadata}"`];
  if (error) {
    parts.push(`error="${error.code}"`);
    if (error.scope) parts.push(`scope="${error.scope}"`);
    if (error.description) parts.push(`error_description="${error.description.replace(/["\\]/g, '')}"`);
  }
  return `Bearer ${parts.join(', ')}`;
}
