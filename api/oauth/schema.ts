import { z } from 'zod';
import { MCP_SCOPES } from '../../core/mcpOAuth';

const Scope = z.enum(MCP_SCOPES);

/** What the consent page shows of an authorization request. */
export const ConsentRequestView = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), uri: z.string().nullable(), kind: z.enum(['dcr', 'cimd']).nullable() }),
  redirect_host: z.string(),
  scopes: z.array(Scope),
  resource: z.string(),
  organisation_id: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
  enabled: z.boolean(),
  may_approve_write: z.boolean(),
  tools: z.array(z.object({ name: z.string(), title: z.string(), scope: Scope })),
});

export const DecisionResult = z.object({ redirect_to: z.string() });

export const ConnectedHost = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  redirect_host: z.string(),
  member_id: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  revoked_reason: z.string().nullable(),
});

export const HostsList = z.object({ success: z.literal(true), data: z.array(ConnectedHost) });

export const OAuthSettingsView = z.object({
  success: z.literal(true),
  data: z.object({ enabled: z.boolean(), members_may_write: z.boolean(), workflow_allowlist: z.array(z.string()).nullable() }),
});
