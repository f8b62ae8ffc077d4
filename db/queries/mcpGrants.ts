import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface McpGrantRow {
  id: string;
  operator_id: string;
  member_id: string;
  client_id: string;
  client_name: string;
  redirect_host: string;
  scopes: string[];
  resource: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface McpCodeRow {
  code_hash: string;
  operator_id: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
}

/** A token with the grant it descends from, as authentication and the token endpoint read it. */
export interface McpTokenWithGrant {
  token_hash: string;
  kind: 'access' | 'refresh';
  resource: string;
  expires_at: Date;
  used_at: Date | null;
  grant: McpGrantRow;
}

const inSeconds = (db: Runner, seconds: number) => db.raw(`now() + make_interval(secs => ?)`, [seconds]);

export async function insertGrant(
  trx: Runner,
  grant: Pick<McpGrantRow, 'operator_id' | 'member_id' | 'client_id' | 'client_name' | 'redirect_host' | 'scopes' | 'resource'>,
): Promise<McpGrantRow> {
  const [row] = await trx('mcp_oauth_grants').insert(grant).returning('*');
  return row as McpGrantRow;
}

export async function insertCode(trx: Runner, code: Omit<McpCodeRow, 'expires_at' | 'used_at'> & { ttlSeconds: number }): Promise<void> {
  const { ttlSeconds, ...row } = code;
  await trx('mcp_oauth_codes').insert({ ...row, expires_at: inSeconds(trx, ttlSeconds) });
}

/** The code row, locked until the transaction ends, so two exchanges of one code cannot both pass. */
export async function lockCode(trx: Knex.Transaction, codeHash: string): Promise<(McpCodeRow & { expired: boolean }) | undefined> {
  return trx('mcp_oauth_codes').where({ code_hash: codeHash }).forUpdate().first('*', trx.raw('expires_at <= now() AS expired'));
}

export async function markCodeUsed(trx: Runner, codeHash: string): Promise<void> {
  await trx('mcp_oauth_codes').where({ code_hash: codeHash }).update({ used_at: trx.fn.now() });
}

export async function insertTokens(
  trx: Runner,
  input: { operatorId: string; grantId: string; resource: string; tokens: Array<{ hash: string; kind: 'access' | 'refresh'; ttlSeconds: number }> },
): Promise<void> {
  await trx('mcp_oauth_tokens').insert(
    input.tokens.map((token) => ({
      token_hash: token.hash,
      operator_id: input.operatorId,
      grant_id: input.grantId,
      kind: token.kind,
      resource: input.resource,
      expires_at: inSeconds(trx, token.ttlSeconds),
    })),
  );
}

const GRANT_COLUMNS = [
  'id',
  'operator_id',
  'member_id',
  'client_id',
  'client_name',
  'redirect_host',
  'scopes',
  'resource',
  'created_at',
  'last_used_at',
  'revoked_at',
  'revoked_reason',
];

/** A token of `kind` that has not expired, with its grant (revoked or not: the caller decides); locked when `lock`. */
export async function findToken(db: Runner, tokenHash: string, kind: 'access' | 'refresh', lock = false): Promise<McpTokenWithGrant | undefined> {
  const query = db('mcp_oauth_tokens as t')
    .join('mcp_oauth_grants as g', 'g.id', 't.grant_id')
    .where({ 't.token_hash': tokenHash, 't.kind': kind })
    .where('t.expires_at', '>', db.fn.now())
    .first('t.token_hash', 't.kind', 't.resource', 't.expires_at', 't.used_at', db.raw(`row_to_json(g.*) AS grant`));
  if (lock) query.forUpdate('t');
  const row = (await query) as (Omit<McpTokenWithGrant, 'grant'> & { grant: Record<string, unknown> }) | undefined;
  if (!row) return undefined;
  const grant = row.grant;
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));
  return {
    ...row,
    grant: {
      ...(Object.fromEntries(GRANT_COLUMNS.map((column) => [column, grant[column]])) as unknown as McpGrantRow),
      created_at: new Date(String(grant.created_at)),
      last_used_at: date(grant.last_used_at),
      revoked_at: date(grant.revoked_at),
    },
  };
}

export async function markTokenUsed(trx: Runner, tokenHash: string): Promise<void> {
  await trx('mcp_oauth_tokens').where({ token_hash: tokenHash }).update({ used_at: trx.fn.now() });
}

export async function lockGrant(trx: Knex.Transaction, operatorId: string, grantId: string): Promise<McpGrantRow | undefined> {
  return trx('mcp_oauth_grants').where({ operator_id: operatorId, id: grantId }).forUpdate().first();
}

/** Revokes the grant (a no-op on one already revoked) and deletes every token it issued; returns the row after. */
export async function revokeGrant(trx: Runner, operatorId: string, grantId: string, reason: string): Promise<McpGrantRow | undefined> {
  const [row] = await trx('mcp_oauth_grants')
    .where({ operator_id: operatorId, id: grantId })
    .whereNull('revoked_at')
    .update({ revoked_at: trx.fn.now(), revoked_reason: reason })
    .returning('*');
  await trx('mcp_oauth_tokens').where({ operator_id: operatorId, grant_id: grantId }).delete();
  return row as McpGrantRow | undefined;
}

/** Records use at most once a minute per grant, so an agent's every call is not a write. */
export async function touchGrant(db: Db, operatorId: string, grantId: string): Promise<void> {
  await db('mcp_oauth_grants')
    .where({ operator_id: operatorId, id: grantId })
    .where((where) => where.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw("now() - interval '1 minute'")))
    .update({ last_used_at: db.fn.now() });
}

/** The organisation's grants, newest first, revoked ones included (up to `limit`). */
export async function listGrants(db: Db, operatorId: string, limit = 200): Promise<McpGrantRow[]> {
  return db('mcp_oauth_grants').where({ operator_id: operatorId }).orderBy('created_at', 'desc').limit(limit);
}

/** The settings as the API reads and writes them (`workflow_allowlist`, the spec's word, is the column `automation_allowlist`). */
export interface McpOAuthSettings {
  enabled: boolean;
  members_may_write: boolean;
  workflow_allowlist: string[] | null;
}

const SETTINGS_COLUMNS = ['enabled', 'members_may_write', 'automation_allowlist as workflow_allowlist'];

export const DEFAULT_OAUTH_SETTINGS: McpOAuthSettings = { enabled: true, members_may_write: false, workflow_allowlist: null };

export async function getOAuthSettings(db: Runner, operatorId: string): Promise<McpOAuthSettings> {
  const row = await db('mcp_oauth_settings').where({ operator_id: operatorId }).first(SETTINGS_COLUMNS);
  return (row as McpOAuthSettings | undefined) ?? DEFAULT_OAUTH_SETTINGS;
}

export async function putOAuthSettings(db: Runner, operatorId: string, settings: McpOAuthSettings): Promise<McpOAuthSettings> {
  const values = {
    enabled: settings.enabled,
    members_may_write: settings.members_may_write,
    automation_allowlist: settings.workflow_allowlist,
    updated_at: db.fn.now(),
  };
  const [row] = await db('mcp_oauth_settings')
    .insert({ operator_id: operatorId, ...values })
    .onConflict('operator_id')
    .merge(values)
    .returning(SETTINGS_COLUMNS);
  return row as McpOAuthSettings;
}
