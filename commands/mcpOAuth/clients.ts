/**
 * The MCP hosts the authorization server knows (docs/mcp.md "Authorization (OAuth 2.1)"): registered by Dynamic Client
 * Registration (RFC 7591), or named by the URL of their Client ID Metadata Document, fetched and cached. Refusals carry
 * the RFC's codes: `invalid_redirect_uri` and `invalid_client_metadata` for a registration, `invalid_client` for a
 * client a request names.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { prefixedId } from '../../core/ids';
import { BOUNDS, DCR_CLIENT_PREFIX, isMetadataDocumentClientId, LIFETIMES, metadataTtlSeconds, redirectUriProblem } from '../../core/mcpOAuth';
import { findLiveClient, removeExpired, touchClient, upsertClient, type OAuthClientRow } from '../../db/queries/oauthClients';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { guardedGet, GuardedGetError } from './guardedGet';

export const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'];

/** What a host may say of itself, by DCR (RFC 7591 2) or in its metadata document; unknown members are ignored. */
export const ClientMetadata = z.object({
  redirect_uris: z.array(z.string()).min(1).max(BOUNDS.redirectUris),
  client_name: z.string().trim().min(1).max(BOUNDS.clientName).optional(),
  client_uri: z.string().max(BOUNDS.uriLength).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  token_endpoint_auth_method: z.string().max(60).optional(),
  scope: z.string().max(200).optional(),
});
export type ClientMetadata = z.infer<typeof ClientMetadata>;

/** The first problem of a host's metadata as `invalid_redirect_uri` or `invalid_client_metadata`, or null. */
function metadataProblem(metadata: ClientMetadata): CommandError | null {
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return new CommandError('invalid_redirect_uri', `redirect_uris: ${uri.slice(0, 100)} ${problem}`);
  }
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (!grants.includes('authorization_code') || grants.some((grant) => !SUPPORTED_GRANTS.includes(grant)))
    return new CommandError('invalid_client_metadata', `grant_types: supported are ${SUPPORTED_GRANTS.join(', ')}`);
  if ((metadata.response_types ?? ['code']).some((type) => type !== 'code'))
    return new CommandError('invalid_client_metadata', 'response_types: only code is supported');
  return null;
}

/**
 * Registers a public client (RFC 7591; its `token_endpoint_auth_method` is always `none`). It lives
 * `LIFETIMES.unusedClient` after its last use; expired registrations are removed here, a bounded batch per
 * registration, so unused ones never pile up however many hosts register.
 */
export async function registerClient(deps: Pick<CommandDeps, 'db'>, metadata: ClientMetadata): Promise<OAuthClientRow> {
  const problem = metadataProblem(metadata);
  if (problem) throw problem;
  await removeExpired(deps.db);
  return upsertClient(deps.db, {
    id: prefixedId(DCR_CLIENT_PREFIX),
    kind: 'dcr',
    clientName: metadata.client_name ?? 'Unnamed MCP host',
    clientUri: metadata.client_uri ?? null,
    redirectUris: metadata.redirect_uris,
    ttlSeconds: LIFETIMES.unusedClient,
  });
}

/** Fetches and checks a Client ID Metadata Document; its `client_id` must be the URL it was fetched from. */
async function fetchMetadataDocument(deps: Pick<CommandDeps, 'db' | 'config'>, clientId: string): Promise<OAuthClientRow> {
  const refused = (why: string) => new CommandError('invalid_client', `client_id ${clientId.slice(0, 200)}: ${why}`);
  let response;
  try {
    response = await guardedGet(new URL(clientId), {
      timeoutMs: BOUNDS.metadataTimeoutMs,
      maxBytes: BOUNDS.metadataBytes,
      allowPrivateNetworks: deps.config.OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS,
      ...(deps.config.OAUTH_CIMD_CA_FILE ? { extraCa: readFileSync(deps.config.OAUTH_CIMD_CA_FILE, 'utf8') } : {}),
    });
  } catch (error) {
    if (error instanceof GuardedGetError) throw refused(error.message);
    throw error;
  }
  if (response.status !== 200) throw refused(`the metadata document answered ${response.status}`);
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw refused('the metadata document is not JSON');
  }
  const parsed = ClientMetadata.extend({ client_id: z.string() }).safeParse(document);
  if (!parsed.success) throw refused(`the metadata document is invalid at ${parsed.error.issues[0]?.path.join('.') || 'its root'}`);
  if (parsed.data.client_id !== clientId) throw refused('the document’s client_id is not the URL it was fetched from');
  const method = parsed.data.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') throw refused('only public clients (token_endpoint_auth_method none) are supported');
  const problem = metadataProblem(parsed.data);
  if (problem) throw refused(problem.message);
  return upsertClient(deps.db, {
    id: clientId,
    kind: 'cimd',
    clientName: parsed.data.client_name ?? new URL(clientId).host,
    clientUri: parsed.data.client_uri ?? null,
    redirectUris: parsed.data.redirect_uris,
    ttlSeconds: metadataTtlSeconds(response.cacheControl),
  });
}

/**
 * The client a request names: a registration (`mcpc_…`, its life extended by the use), or a Client ID Metadata
 * Document, read from the cache while it is fresh and fetched again after. Unknown or expired is `invalid_client`.
 */
export async function resolveClient(deps: Pick<CommandDeps, 'db' | 'config'>, clientId: string): Promise<OAuthClientRow> {
  const cached = await findLiveClient(deps.db, clientId);
  if (cached) {
    if (cached.kind === 'dcr') await touchClient(deps.db, cached.id, LIFETIMES.unusedClient);
    return cached;
  }
  if (isMetadataDocumentClientId(clientId, deps.config.OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS)) return fetchMetadataDocument(deps, clientId);
  throw new CommandError('invalid_client', 'client_id is not registered (or its registration expired unused): register again');
}
