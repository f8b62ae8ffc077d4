/** Examples of the OAuth documents and answers, for the OpenAPI document (checked against their schemas by test). */
const base = 'https://platform.example.com';

export const resourceMetadata = {
  resource: `${base}/mcp-server`,
  authorization_servers: [base],
  scopes_supported: ['mcp:tools.read', 'mcp:tools.write'],
  bearer_methods_supported: ['header'],
  resource_name: 'Operator Platform MCP server',
};

export const serverMetadata = {
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  registration_endpoint: `${base}/oauth/register`,
  revocation_endpoint: `${base}/oauth/revoke`,
  scopes_supported: ['mcp:tools.read', 'mcp:tools.write'],
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  client_id_metadata_document_supported: true,
  authorization_response_iss_parameter_supported: true,
};

export const tokenBody = {
  grant_type: 'authorization_code',
  code: 'mcpac_Q2xhdWRlIGFza2VkIGZvciB0aGlzIGNvZGUgb25jZS4uLi4uLi4',
  code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  client_id: 'mcpc_3f9c0e2b4a6d8f1e3c5b7a9d0e2f4a6b',
  redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
  resource: `${base}/mcp-server`,
};

export const tokens = {
  access_token: 'mcpat_3q2-7w_example-access-token-43-characters-long',
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: 'mcprt_example-refresh-token-43-characters-long-ok',
  scope: 'mcp:tools.read mcp:tools.write',
};

export const revokeBody = { token: 'mcprt_example-refresh-token-43-characters-long-ok', client_id: 'mcpc_3f9c0e2b4a6d8f1e3c5b7a9d0e2f4a6b' };

export const registerBody = {
  client_name: 'Cursor',
  redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'http://127.0.0.1:6274/oauth/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

export const registered = {
  client_id: 'mcpc_3f9c0e2b4a6d8f1e3c5b7a9d0e2f4a6b',
  client_id_issued_at: 1796000000,
  client_name: 'Cursor',
  redirect_uris: registerBody.redirect_uris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

export const consentRequest = {
  id: 'oar_3f9c0e2b4a6d8f1e3c5b7a9d0e2f4a6b',
  client: { id: 'https://claude.ai/oauth/mcp-oauth-client-metadata', name: 'Claude', uri: 'https://claude.ai', kind: 'cimd' },
  redirect_host: 'claude.ai',
  scopes: ['mcp:tools.read', 'mcp:tools.write'],
  resource: `${base}/mcp-server`,
  organisation_id: '7d1f8f5e-2b1c-4e8a-9a53-0c9a3e1b2d4f',
  role: 'owner',
  enabled: true,
  may_approve_write: true,
  tools: [
    { name: 'player_lookup', title: 'Player lookup', scope: 'mcp:tools.read' },
    { name: 'credit_bonus', title: 'Credit bonus', scope: 'mcp:tools.write' },
  ],
};

export const decisionBody = { decision: 'approve', scopes: ['mcp:tools.read'] };

export const decision = { redirect_to: 'https://claude.ai/api/mcp/auth_callback?code=mcpac_example&state=af0ifjsldkj&iss=https%3A%2F%2Fplatform.example.com' };

export const hosts = {
  success: true,
  data: [
    {
      id: '9b2e4c1a-7f3d-4e5b-8a6c-1d2e3f4a5b6c',
      client_id: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
      client_name: 'Claude',
      redirect_host: 'claude.ai',
      member_id: '0c9a3e1b-2d4f-4e8a-9a53-7d1f8f5e2b1c',
      scopes: ['mcp:tools.read', 'mcp:tools.write'],
      created_at: '2026-12-01T09:00:00.000Z',
      last_used_at: '2026-12-01T09:05:00.000Z',
      revoked_at: null,
      revoked_reason: null,
    },
  ],
};

export const settingsBody = { members_may_write: false, workflow_allowlist: null };

export const settings = { success: true, data: { enabled: true, members_may_write: false, workflow_allowlist: null } };
