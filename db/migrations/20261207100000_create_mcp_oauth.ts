import type { Knex } from 'knex';

/**
 * The OAuth 2.1 authorization server for MCP (docs/mcp.md "Authorization (OAuth 2.1)"):
 * - `oauth_clients`: hosts registered by Dynamic Client Registration (`dcr`, expire when unused) and the cached
 *   Client ID Metadata Documents (`cimd`, refetched after `expires_at`). No organisation: a host registers before any
 *   member has approved it.
 * - `oauth_requests`: an authorization request waiting for a member's decision on the consent page (10 minutes).
 * - `mcp_oauth_grants`: one member's approval of one host in one organisation — the family every code and token
 *   descends from; revoking it ends them all.
 * - `mcp_oauth_codes` and `mcp_oauth_tokens`: only SHA-256 hashes of the codes and tokens are stored.
 * - `mcp_oauth_settings`: the organisation's switch for OAuth hosts, whether a Member may approve tools with real
 *   effects, and the workflows hosts may reach (null = every workflow exposed to MCP).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('oauth_clients', (table) => {
    table.text('id').primary();
    table.text('kind').notNullable();
    table.text('client_name').notNullable();
    table.text('client_uri');
    table.specificType('redirect_uris', 'text[]').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['expires_at'], 'oauth_clients_expires_idx');
  });
  await db.raw("ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_kind CHECK (kind IN ('dcr', 'cimd'))");

  await db.schema.createTable('oauth_requests', (table) => {
    table.text('id').primary();
    table.text('client_id').notNullable();
    table.text('redirect_uri').notNullable();
    table.text('state');
    table.text('code_challenge').notNullable();
    table.specificType('scopes', 'text[]').notNullable();
    table.text('resource').notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['expires_at'], 'oauth_requests_expires_idx');
  });

  await db.schema.createTable('mcp_oauth_grants', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('member_id').notNullable();
    table.text('client_id').notNullable();
    table.text('client_name').notNullable();
    table.text('redirect_host').notNullable();
    table.specificType('scopes', 'text[]').notNullable();
    table.text('resource').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('last_used_at', { useTz: true });
    table.timestamp('revoked_at', { useTz: true });
    table.text('revoked_reason');
    table.index(['operator_id', 'created_at'], 'mcp_oauth_grants_operator_idx');
  });

  await db.schema.createTable('mcp_oauth_codes', (table) => {
    table.specificType('code_hash', 'char(64)').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('grant_id').notNullable().references('id').inTable('mcp_oauth_grants').onDelete('CASCADE');
    table.text('client_id').notNullable();
    table.text('redirect_uri').notNullable();
    table.text('code_challenge').notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
  });

  await db.schema.createTable('mcp_oauth_tokens', (table) => {
    table.specificType('token_hash', 'char(64)').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('grant_id').notNullable().references('id').inTable('mcp_oauth_grants').onDelete('CASCADE');
    table.text('kind').notNullable();
    table.text('resource').notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['grant_id'], 'mcp_oauth_tokens_grant_idx');
    table.index(['expires_at'], 'mcp_oauth_tokens_expires_idx');
  });
  await db.raw("ALTER TABLE mcp_oauth_tokens ADD CONSTRAINT mcp_oauth_tokens_kind CHECK (kind IN ('access', 'refresh'))");

  await db.schema.createTable('mcp_oauth_settings', (table) => {
    table.uuid('operator_id').primary().references('id').inTable('operators').onDelete('CASCADE');
    table.boolean('enabled').notNullable().defaultTo(true);
    table.boolean('members_may_write').notNullable().defaultTo(false);
    table.specificType('workflow_allowlist', 'text[]');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('mcp_oauth_settings');
  await db.schema.dropTable('mcp_oauth_tokens');
  await db.schema.dropTable('mcp_oauth_codes');
  await db.schema.dropTable('mcp_oauth_grants');
  await db.schema.dropTable('oauth_requests');
  await db.schema.dropTable('oauth_clients');
}
