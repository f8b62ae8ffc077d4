import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { prefixedId } from '../../core/ids';
import { BOUNDS, DCR_CLIENT_PREFIX, isMetadataDocumentClientId, LIFETIMES, metadataTtlSeconds, redirectUriProblem } from '../../core/mcpOAuth';
import { findLiveClient, removeExpired, touchClient, upsertClient, type OAuthClientRow } from '../../db/queries/oauthClients';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { guardedGet, GuardedGetError } from './guardedGet';
import { oauth } from './area';

const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'];

/** What a host may say of itself, by DCR (RFC 7591 2) or in its metadata document; unknown members are ignored. */
const ClientMetadata = z.object({
  redirect_uris: z.array(z.string()).min(1).max(BOUNDS.redirectUris),
  client_name: z.string().trim().min(1).max(BOUNDS.clientName).optional(),
  client_uri: z.string().max(BOUNDS.uriLength).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  token_endpoint_auth_method: z.string().max(60).optional(),
  scope: z.string().max(200).optional(),
});
type ClientMetadata = z.infer<typeof ClientMetadata>;

/** The first problem of a host's metadata as `invalid_redirect_uri` or `invalid_client_metadata`, or null. */
function metadataProblem(metadata: ClientMetadata): AppError | null {
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return new AppError(400, 'invalid_redirect_uri', `redirect_uris: ${uri.slice(0, 100)} ${problem}`);
  }
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (!grants.includes('authorization_code') || grants.some((grant) => !SUPPORTED_GRANTS.includes(grant)))
    return new AppError(400, 'invalid_client_metadata', `grant_types: supported are ${SUPPORTED_GRANTS.join(', ')}`);
  if ((metadata.response_types ?? ['code']).some((type) => type !== 'code'))
    return new AppError(400, 'invalid_client_metadata', 'response_types: only code is supported');
  return null;
}

const parseProblem = (error: z.ZodError) => {
  const issue = error.issues[0];
  return new AppError(400, 'invalid_client_metadata', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
};

/**
 * `POST /oauth/register` (RFC 7591): a public client (`token_endpoint_auth_method` is always `none`, whatever was
 * asked — RFC 7591 3.2.1 lets the server replace it). It lives `LIFETIMES.unusedClient` after its last use; expired
 * registrations are removed here, a bounded batch per registration. The body (JSON or a form post) is read raw: a
 * problem is RFC 7591's `invalid_client_metadata`, not the area's `invalid_request`.
 */
export const registerHandler = oauth.handler({ raw: ['body'] }, async ({ deps, ctx, raw }) => {
  const parsed = ClientMetadata.safeParse(raw.body ?? {});
  if (!parsed.success) throw parseProblem(parsed.error);
  const problem = metadataProblem(parsed.data);
  if (problem) throw problem;
  await removeExpired(deps.db);
  const metadata = parsed.data;
  const row = await upsertClient(deps.db, {
    id: prefixedId(DCR_CLIENT_PREFIX),
    kind: 'dcr',
    clientName: metadata.client_name ?? 'Unnamed MCP host',
    clientUri: metadata.client_uri ?? null,
    redirectUris: metadata.redirect_uris,
    ttlSeconds: LIFETIMES.unusedClient,
  });
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

/** Fetches and checks a Client ID Metadata Document; its `client_id` must be the URL it was fetched from. */
async function fetchMetadataDocument(deps: AppDeps, clientId: string): Promise<OAuthClientRow> {
  const refused = (why: string) => new AppError(400, 'invalid_client', `client_id ${clientId.slice(0, 200)}: ${why}`);
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
export async function resolveClient(deps: AppDeps, clientId: string | undefined): Promise<OAuthClientRow> {
  if (!clientId) throw new AppError(400, 'invalid_request', 'client_id is required');
  const cached = await findLiveClient(deps.db, clientId);
  if (cached) {
    if (cached.kind === 'dcr') await touchClient(deps.db, cached.id, LIFETIMES.unusedClient);
    return cached;
  }
  if (isMetadataDocumentClientId(clientId, deps.config.OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS)) return fetchMetadataDocument(deps, clientId);
  throw new AppError(400, 'invalid_client', 'client_id is not registered (or its registration expired unused): register again');
}
