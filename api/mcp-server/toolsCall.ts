import { messageFrame, progressNotification } from '../../core/mcpEvents';
import { errorResponse, JSONRPC_ERROR, mcpRequestKey, progressTokenOf, resultResponse, type JsonRpcId } from '../../core/mcpJsonRpc';
import { argumentProblems, errorToolResult, stillRunningToolResult, toolResultOf } from '../../core/mcpToolCall';
import type { AutomationRunRecord } from '../../core/automations/types';
import { findMcpTool } from './tools';
import { AUDIENCE_TOOL, callAudienceTool, seesAudienceTool } from './audienceTool';
import { toRunRecord } from '../../core/automations/runRecord';
import { findRun, findRunRecord } from '../../db/queries/automationRuns';
import { runAutomationNow } from '../../temporal/automationRuns';
import { waitedRunSteps } from '../waitedRuns';
import type { AutomationProgress } from '../../core/workflowContracts';
import type { DispatchContext, McpAnswer } from './dispatchContext';
import type { EventStreamResponse } from './eventStreamResponse';
import { isPlainObject } from '../../core/mcpJsonRpc';
import { LEGACY_TASKS_REVISION, REVISION_ERROR } from '../../core/mcpRevision';
import { TASKS_EXTENSION, taskSupportOf } from '../../core/mcpTasks';
import { createToolTask } from './tasks';
import { requireScopeFor } from './scope';

const invalidParams = (id: JsonRpcId, message: string, data?: unknown): McpAnswer => ({
  response: errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, message, data),
});

/**
 * Forwards a run's progress in order: onto the call's own event stream when it answers with one, and to the
 * (operator, session) streams of the spec's channel when the call carries `Mcp-Session-Id` (as before there was a
 * stream on the call). Each published frame waits for the one before it, so frames published through NOTIFY cannot
 * overtake each other on different pool connections. Progress is sampled while the run goes, so `finish` sends
 * the closing frame (every node accounted for) if sampling missed it; `silence` stops the call's own stream once
 * the client cancelled the call (its progress handler is gone).
 */
function progressForwarder(context: DispatchContext, token: JsonRpcId | undefined, own: EventStreamResponse | undefined) {
  const { hub, principal, sessionId } = context;
  let chain: Promise<void> = Promise.resolve();
  let sent = 0;
  let silenced = false;
  const send = (progress: AutomationProgress) => {
    if (token === undefined) return;
    sent = Math.max(sent, progress.progress);
    const message = progressNotification({
      progressToken: token,
      progress: progress.progress,
      total: progress.total,
      ...(progress.message !== undefined ? { message: progress.message } : {}),
    });
    if (own && !silenced) own.write(messageFrame(message));
    if (sessionId === undefined) return;
    chain = chain.then(() => hub.publish(principal.operatorId, sessionId, message)).catch(context.log);
  };
  return {
    onProgress: token !== undefined && (own || sessionId !== undefined) ? send : undefined,
    silence: () => {
      silenced = true;
    },
    finish: (run: AutomationRunRecord) => {
      const nodes = run.nodes.length;
      if ((run.status === 'completed' || run.status === 'failed') && nodes > sent) send({ progress: nodes, total: nodes, message: run.status });
      return chain;
    },
  };
}

/** The answer for a run its client cancelled: the stored run as `RUN_CANCELLED` (only a JSON answer shows it). */
async function cancelledAnswer(context: DispatchContext, id: JsonRpcId, runId: string, elapsedMs: number): Promise<McpAnswer> {
  const row = await findRun(context.deps.db, context.principal.operatorId, runId);
  const result = row
    ? toolResultOf(await toRunRecord(row, context.deps.keyring), elapsedMs)
    : errorToolResult('RUN_CANCELLED', `Run ${runId} was cancelled`, runId, elapsedMs);
  return { response: resultResponse(id, result), cancelled: true };
}

/**
 * `tools/call` (spec 4.6): the tool must be listed for this key (else `-32602`), its arguments an object whose
 * present fields have the schema's types (else `-32602`); then the workflow runs through Temporal with source
 * `mcp` and the caller waits for it. Execution failures — a missing required field (`MISSING_TRIGGER_FIELD`,
 * checked by the run before any node), `QUOTA_EXCEEDED`, a node's error — are results with `isError: true`.
 * A call with `_meta.progressToken` from a client accepting `text/event-stream` is answered with a stream of its
 * `notifications/progress` and then the result (MCP Streamable HTTP). A call sent with `Mcp-Session-Id` can be
 * cancelled by `notifications/cancelled` (callCancellation.ts).
 *
 * @example await callTool(context, 1, { name: 'kyc-check', arguments: { playerId: 'p-1' } })
 */
export async function callTool(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  const { deps, principal, sessionId } = context;
  const name = params.name;
  if (typeof name !== 'string' || name === '') return invalidParams(id, 'Invalid params: name must be a non-empty string');
  const args = params.arguments === undefined ? {} : params.arguments;
  const progress = progressTokenOf(params);
  if (progress.invalid) return invalidParams(id, 'Invalid params: _meta.progressToken must be a string or a number');

  if (name === AUDIENCE_TOOL.name && (await seesAudienceTool(context))) {
    requireScopeFor(context, AUDIENCE_TOOL);
    return callAudienceTool(context, id, args);
  }
  const found = await findMcpTool(deps, principal.operatorId, principal.mcpAutomationAllowlist, name);
  if (!found) return invalidParams(id, `Unknown tool: ${name}`);
  const { tool } = found;
  requireScopeFor(context, tool);
  const problems = argumentProblems(tool.inputSchema, args);
  if (problems.length > 0) return invalidParams(id, `Invalid arguments: ${problems.join('; ')}`, { problems });

  const { revision } = context;
  const required = taskSupportOf(tool.waitsMs, deps.config.MCP_CALL_WAIT_MS) === 'required';
  if (revision.modern && required) {
    if (revision.tasks) return createToolTask(context, id, tool, args, undefined);
    return {
      response: errorResponse(id, REVISION_ERROR.MISSING_CAPABILITY, `Tool ${name} runs as a task: declare the ${TASKS_EXTENSION} extension`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      }),
      status: 400,
    };
  }
  // 2026-07-28 ignores a legacy `task` parameter: a tool that answers at once is not made a task.
  if (!revision.modern && isPlainObject(params.task)) return createToolTask(context, id, tool, args, params.task.ttl);
  if (!revision.modern && required && revision.version === LEGACY_TASKS_REVISION) {
    return { response: errorResponse(id, JSONRPC_ERROR.METHOD_NOT_FOUND, `Tool ${name} runs as a task: call it with params.task`) };
  }

  const started = Date.now();
  const own = progress.token !== undefined ? context.openStream?.() : undefined;
  const forwarder = progressForwarder(context, progress.token, own);
  const requestKey = sessionId === undefined ? undefined : mcpRequestKey(sessionId, id);
  let untrack: () => void = () => undefined;
  try {
    const outcome = await runAutomationNow(
      deps.temporal,
      { operatorId: principal.operatorId, automationId: tool.automationId, source: 'mcp', input: args, ...(requestKey ? { mcpRequest: requestKey } : {}) },
      {
        ...waitedRunSteps(deps, found.source),
        waitMs: deps.config.MCP_CALL_WAIT_MS,
        readRun: (runId) => findRunRecord(deps.db, deps.keyring, principal.operatorId, runId),
        ...(forwarder.onProgress ? { onProgress: forwarder.onProgress } : {}),
        onStarted: ({ temporalWorkflowId }) => {
          if (requestKey) untrack = context.cancellation.track(principal.operatorId, requestKey, { temporalWorkflowId, onCancel: forwarder.silence });
        },
      },
    );
    if (outcome.kind === 'not_found') return invalidParams(id, `Unknown tool: ${name}`);
    if (outcome.kind === 'running') return { response: resultResponse(id, stillRunningToolResult(outcome.runId, Date.now() - started)) };
    if (outcome.kind === 'cancelled') return cancelledAnswer(context, id, outcome.runId, Date.now() - started);
    await forwarder.finish(outcome.run);
    return { response: resultResponse(id, toolResultOf(outcome.run, Date.now() - started, tool.outputSchema !== null)) };
  } finally {
    untrack();
  }
}
