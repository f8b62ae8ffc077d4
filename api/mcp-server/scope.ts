import { MCP_SCOPES, scopeForTool } from '../../core/mcpOAuth';
import type { McpTool } from '../../core/mcpTool';
import { AppError } from '../errors';
import { bearerChallenge } from '../oauth/urls';
import type { DispatchContext } from './dispatchContext';

/**
 * A host signed in with OAuth calls a tool with real effects only with `mcp:tools.write`: otherwise 403
 * `insufficient_scope` naming the scopes to ask for (MCP step-up authorization). API keys have no scopes.
 */
export function requireScopeFor(context: DispatchContext, tool: Pick<McpTool, 'name' | 'annotations'>): void {
  const { principal } = context;
  if (principal.kind !== 'oauth') return;
  const needed = scopeForTool(tool.annotations);
  if (principal.scopes.includes(needed)) return;
  const scope = MCP_SCOPES.join(' ');
  const description = `Tool ${tool.name} has real effects: it needs the scope ${needed}`;
  throw new AppError(403, 'INSUFFICIENT_SCOPE', description, {
    headers: { 'WWW-Authenticate': bearerChallenge(context.deps.config, { code: 'insufficient_scope', scope, description }) },
  });
}
