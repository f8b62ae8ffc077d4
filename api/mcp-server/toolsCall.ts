import { progressNotification } from '../../core/mcpEvents';
import { errorResponse, JSONRPC_ERROR, progressTokenOf, resultResponse, type JsonRpcId, type JsonRpcResponse } from '../../core/mcpJsonRpc';
import { argumentProblems, stillRunningToolResult, toolResultOf } from '../../core/mcpToolCall';
import type { WorkflowRun } from '../../core/workflows/types';
import { findMcpTool } from '../../db/queries/mcpTools';
import { runAutomationNow } from '../../temporal/automationRuns';
import type { AutomationProgress } from '../../workflows/contracts';
import type { AppDeps } from '../deps';
import type { ApiKeyPrincipal } from '../middleware/authenticate';
import type { McpStreamHub } from './streamHub';

const invalidParams = (id: JsonRpcId, message: string, data?: unknown) => errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, message, data);

/**
 * Forwards a run's progress to the caller's event stream in order; each frame waits for the one before it, so
 * frames published through NOTIFY cannot overtake each other on different pool connections. Progress is sampled
 * while the run goes, so `finish` sends the closing frame (every node accounted for) if sampling missed it.
 */
function progressForwarder(hub: McpStreamHub, operatorId: string, sessionId: string | undefined, token: JsonRpcId | undefined, log: (error: Error) => void) {
  let chain: Promise<void> = Promise.resolve();
  let sent = 0;
  const send = (progress: AutomationProgress) => {
    if (sessionId === undefined || token === undefined) return;
    sent = Math.max(sent, progress.progress);
    const message = progressNotification({ progressToken: token, progress: progress.progress, total: progress.total, ...(progress.message !== undefined ? { message: progress.message } : {}) });
    chain = chain.then(() => hub.publish(operatorId, sessionId, message)).catch(log);
  };
  return {
    onProgress: sessionId !== undefined && token !== undefined ? send : undefined,
    finish: (run: WorkflowRun) => {
      const nodes = run.nodes.length;
      if (run.status !== 'running' && nodes > sent) send({ progress: nodes, total: nodes, message: run.status });
      return chain;
    },
  };
}

/**
 * `tools/call` (spec 4.6): the tool must be listed for this key (else `-32602`), its arguments an object whose
 * present fields have the schema's types (else `-32602`); then the workflow runs through Temporal with source
 * `mcp` and the caller waits for it. Execution failures — a missing required field (`MISSING_TRIGGER_FIELD`,
 * checked by the run before any node), `QUOTA_EXCEEDED`, a node's error — are results with `isError: true`.
 *
 * @example await callTool(deps, hub, principal, 1, { name: 'kyc-check', arguments: { playerId: 'p-1' } }, sessionId)
 */
export async function callTool(
  deps: AppDeps,
  hub: McpStreamHub,
  principal: ApiKeyPrincipal,
  id: JsonRpcId,
  params: Record<string, unknown>,
  sessionId: string | undefined,
  log: (error: Error) => void,
): Promise<JsonRpcResponse> {
  const name = params.name;
  if (typeof name !== 'string' || name === '') return invalidParams(id, 'Invalid params: name must be a non-empty string');
  const args = params.arguments === undefined ? {} : params.arguments;
  const progress = progressTokenOf(params);
  if (progress.invalid) return invalidParams(id, 'Invalid params: _meta.progressToken must be a string or a number');

  const tool = await findMcpTool(deps.db, principal.operatorId, principal.mcpWorkflowAllowlist, name);
  if (!tool) return invalidParams(id, `Unknown tool: ${name}`);
  const problems = argumentProblems(tool.inputSchema, args);
  if (problems.length > 0) return invalidParams(id, `Invalid arguments: ${problems.join('; ')}`, { problems });

  const started = Date.now();
  const forwarder = progressForwarder(hub, principal.operatorId, sessionId, progress.token, log);
  const outcome = await runAutomationNow(
    deps.temporal,
    { operatorId: principal.operatorId, workflowId: tool.workflowId, source: 'mcp', input: args },
    { waitMs: deps.config.MCP_CALL_WAIT_MS, ...(forwarder.onProgress ? { onProgress: forwarder.onProgress } : {}) },
  );
  if (outcome.kind === 'not_found') return invalidParams(id, `Unknown tool: ${name}`);
  if (outcome.kind === 'running') return resultResponse(id, stillRunningToolResult(outcome.runId, Date.now() - started));
  await forwarder.finish(outcome.run);
  return resultResponse(id, toolResultOf(outcome.run, Date.now() - started));
}
