import type { Knex } from 'knex';
import { sha256Hex } from '../../core/apiKeyToken';
import { secretToken } from '../../core/ids';
import { ACCESS_TOKEN_PREFIX, CODE_PREFIX, LIFETIMES, pkceMatches, REFRESH_TOKEN_PREFIX } from '../../core/mcpOAuth';
import {
  findToken,
  insertCode,
  insertGrant,
  insertTokens,
  lockCode,
  markCodeUsed,
  markTokenUsed,
  revokeGrant,
  touchGrant,
  type McpGrantRow,
} from '../../db/queries/mcpGrants';
import { findMember } from '../../db/queries/identity';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

/** The token response of RFC 6749 5.1, as `/oauth/token` answers it. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const invalidGrant = (description: string) => new CommandError('invalid_grant', description);

/** The prefix and 43 base64url characters: `mcpat_…` (access), `mcprt_…` (refresh), `mcpac_…` (code). */
const newSecret = (prefix: string) => secretToken(prefix.slice(0, -1));

/** What the trail records of a grant: its fields, never a token. */
const grantRecord = (grant: McpGrantRow) => ({ ...grant, last_used_at: undefined });

/**
 * A member's approval: the grant (the family every token descends from) and its single-use code, audited as
 * `mcp_grant.created` by the member. Returns the code in clear (only its hash is stored).
 */
export async function approveGrant(
  deps: Pick<CommandDeps, 'db'>,
  input: {
    operatorId: string;
    memberId: string;
    client: { id: string; name: string };
    redirectUri: string;
    redirectHost: string;
    codeChallenge: string;
    scopes: string[];
    resource: string;
  },
): Promise<{ code: string; grant: McpGrantRow }> {
  const code = newSecret(CODE_PREFIX);
  const grant = await deps.db.transaction(async (trx) => {
    const row = await insertGrant(trx, {
      operator_id: input.operatorId,
      member_id: input.memberId,
      client_id: input.client.id,
      client_name: input.client.name,
      redirect_host: input.redirectHost,
      scopes: input.scopes,
      resource: input.resource,
    });
    await insertCode(trx, {
      code_hash: sha256Hex(code),
      operator_id: input.operatorId,
      grant_id: row.id,
      client_id: input.client.id,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      ttlSeconds: LIFETIMES.code,
    });
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: `member:${input.memberId}`,
      action: 'mcp_grant.created',
      target: { type: 'mcp_grant', id: row.id },
      before: null,
      after: grantRecord(row),
      note: `${input.client.name.slice(0, 80)} (${input.scopes.join(' ')})`,
    });
    return row;
  });
  return { code, grant };
}

/** Tokens are issued only while the member who approved is active: a suspended member's host gets no new ones. */
async function memberActive(trx: Knex.Transaction, grant: McpGrantRow): Promise<boolean> {
  const member = await findMember(trx, grant.operator_id, grant.member_id);
  return member?.status === 'active';
}

async function issueTokens(trx: Knex.Transaction, grant: McpGrantRow): Promise<TokenResponse> {
  const access = newSecret(ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(REFRESH_TOKEN_PREFIX);
  await insertTokens(trx, {
    operatorId: grant.operator_id,
    grantId: grant.id,
    resource: grant.resource,
    tokens: [
      { hash: sha256Hex(access), kind: 'access', ttlSeconds: LIFETIMES.accessToken },
      { hash: sha256Hex(refresh), kind: 'refresh', ttlSeconds: LIFETIMES.refreshToken },
    ],
  });
  return { access_token: access, token_type: 'Bearer', expires_in: LIFETIMES.accessToken, refresh_token: refresh, scope: grant.scopes.join(' ') };
}

/** Ends a grant and its tokens for `reason`, audited as `action` with the grant's member as actor (the host acted for them). */
async function endGrant(
  trx: Knex.Transaction,
  grant: McpGrantRow,
  reason: string,
  action: 'mcp_grant.revoked' | 'mcp_grant.refresh_reused',
  actor: `member:${string}` = `member:${grant.member_id}`,
): Promise<boolean> {
  const after = await revokeGrant(trx, grant.operator_id, grant.id, reason);
  if (!after) return false;
  await recordAudit(trx, {
    operatorId: grant.operator_id,
    actor,
    action,
    target: { type: 'mcp_grant', id: grant.id },
    before: grantRecord(grant),
    after: grantRecord(after),
    note: reason,
  });
  return true;
}

/**
 * `grant_type=authorization_code`: the code once, by the client it was issued to, with the redirect URI and the PKCE
 * verifier of its request. A code presented again revokes its grant (RFC 6749 4.1.2): whoever holds it now is not
 * the one who exchanged it first.
 */
export async function exchangeCode(
  deps: Pick<CommandDeps, 'db'>,
  input: { code: string; clientId: string; redirectUri: string; verifier: string; resource: string | undefined },
): Promise<TokenResponse> {
  const outcome = await deps.db.transaction(async (trx): Promise<{ tokens: TokenResponse } | { error: string }> => {
    const row = await lockCode(trx, sha256Hex(input.code));
    if (!row) return { error: 'Invalid or expired authorization code' };
    const found = await findGrantOf(trx, row.operator_id, row.grant_id);
    if (row.used_at) {
      if (found) await endGrant(trx, found, 'authorization code used twice', 'mcp_grant.revoked');
      return { error: 'Invalid or expired authorization code' };
    }
    if (row.expired || !found || found.revoked_at) return { error: 'Invalid or expired authorization code' };
    if (row.client_id !== input.clientId) return { error: 'The code was issued to another client' };
    if (row.redirect_uri !== input.redirectUri) return { error: 'redirect_uri differs from the authorization request' };
    if (input.resource !== undefined && input.resource !== found.resource) throw new CommandError('invalid_target', `resource must be ${found.resource}`);
    if (!pkceMatches(input.verifier, row.code_challenge)) return { error: 'code_verifier does not match the code challenge' };
    if (!(await memberActive(trx, found))) return { error: 'The member who approved this host no longer has access' };
    await markCodeUsed(trx, row.code_hash);
    return { tokens: await issueTokens(trx, found) };
  });
  if ('error' in outcome) throw invalidGrant(outcome.error);
  return outcome.tokens;
}

async function findGrantOf(trx: Knex.Transaction, operatorId: string, grantId: string): Promise<McpGrantRow | undefined> {
  return trx('mcp_oauth_grants').where({ operator_id: operatorId, id: grantId }).forUpdate().first();
}

/**
 * `grant_type=refresh_token`: rotating. A refresh token works once; presented again, its whole family (the grant and
 * every token of it) is revoked and the reuse audited, as a stolen token's thief and its owner cannot be told apart.
 */
export async function refreshTokens(
  deps: Pick<CommandDeps, 'db'>,
  input: { refreshToken: string; clientId: string; resource: string | undefined },
): Promise<TokenResponse> {
  const outcome = await deps.db.transaction(async (trx): Promise<{ tokens: TokenResponse } | { error: string }> => {
    const token = await findToken(trx, sha256Hex(input.refreshToken), 'refresh', true);
    if (!token) return { error: 'Invalid or expired refresh token' };
    const grant = await findGrantOf(trx, token.grant.operator_id, token.grant.id);
    if (!grant || grant.revoked_at) return { error: 'Invalid or expired refresh token' };
    if (token.used_at) {
      await endGrant(trx, grant, 'refresh token used twice', 'mcp_grant.refresh_reused');
      return { error: 'Invalid or expired refresh token' };
    }
    if (grant.client_id !== input.clientId) return { error: 'The refresh token was issued to another client' };
    if (!(await memberActive(trx, grant))) return { error: 'The member who approved this host no longer has access' };
    if (input.resource !== undefined && input.resource !== grant.resource) throw new CommandError('invalid_target', `resource must be ${grant.resource}`);
    await markTokenUsed(trx, token.token_hash);
    return { tokens: await issueTokens(trx, grant) };
  });
  if ('error' in outcome) throw invalidGrant(outcome.error);
  return outcome.tokens;
}

/**
 * RFC 7009: a token of this server ends its grant (access or refresh: the host is disconnected). An unknown,
 * expired or another client's token changes nothing and is not told apart (the host hears the same for all).
 */
export async function revokeToken(deps: Pick<CommandDeps, 'db'>, input: { token: string; clientId: string | undefined }): Promise<void> {
  const hash = sha256Hex(input.token);
  await deps.db.transaction(async (trx) => {
    const token = (await findToken(trx, hash, 'refresh', true)) ?? (await findToken(trx, hash, 'access', true));
    if (!token || token.grant.revoked_at) return;
    if (input.clientId !== undefined && input.clientId !== token.grant.client_id) return;
    const grant = await findGrantOf(trx, token.grant.operator_id, token.grant.id);
    if (grant) await endGrant(trx, grant, 'revoked by the host (RFC 7009)', 'mcp_grant.revoked');
  });
}

/** A member of the organisation disconnects a host from the dashboard; false when there is no such live grant. */
export async function revokeGrantByMember(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; grantId: string; memberId: string }): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const grant = await findGrantOf(trx, input.operatorId, input.grantId);
    if (!grant || grant.revoked_at) return false;
    return endGrant(trx, grant, 'revoked in the dashboard', 'mcp_grant.revoked', `member:${input.memberId}`);
  });
}

/** A host used an access token of the grant: its last use, shown with the connected hosts, moves on at most once a minute. */
export async function recordGrantUse(deps: Pick<CommandDeps, 'db'>, grant: { operatorId: string; grantId: string }): Promise<void> {
  await touchGrant(deps.db, grant.operatorId, grant.grantId);
}
