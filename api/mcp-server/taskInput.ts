import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApprovalAnswer } from '../../core/automations/approval';
import { APPROVAL_FORM_SCHEMA } from '../../core/automations/approval';
import { messageFrame } from '../../core/mcpEvents';
import { isPlainObject, type JsonRpcId } from '../../core/mcpJsonRpc';
import { RELATED_TASK_META_KEY } from '../../core/mcpTasks';
import { awaitingInputOf } from '../../db/queries/automationRuns';
import { findMcpTask, type TaskOwner } from '../../db/queries/mcpTasks';
import { answerRunApproval } from '../../temporal/automationRuns';
import type { AppDeps } from '../deps';
import type { EventStreamResponse } from './eventStreamResponse';

/** How often a waiting `tasks/result` looks at its run for an approval to ask about: one indexed read. */
const INPUT_CHECK_MS = 1_000;
const REQUEST_PREFIX = 'approval';

/**
 * The answer an `ElicitResult` gives an approval: an accepted form with `approved: true` approves; anything else
 * (declined, cancelled, `approved: false`) refuses.
 */
export function approvalAnswerOf(nodeId: string, response: Record<string, unknown>, keyId: string): ApprovalAnswer {
  const content = isPlainObject(response.content) ? response.content : {};
  return {
    nodeId,
    approved: response.action === 'accept' && content.approved === true,
    answeredBy: `key:${keyId}`,
    ...(typeof content.comment === 'string' ? { comment: content.comment.slice(0, 1000) } : {}),
  };
}

/**
 * The id of an approval form sent to a 2025-11-25 client: it names the task and the node, so the client's answer can
 * reach any instance (none keeps the request), plus a nonce so no id repeats within the session.
 */
const inputRequestId = (taskId: string, nodeId: string): string => `${REQUEST_PREFIX}:${taskId}:${nodeId}:${randomBytes(6).toString('base64url')}`;

function parseInputRequestId(id: JsonRpcId | null): { taskId: string; nodeId: string } | undefined {
  if (typeof id !== 'string') return undefined;
  const parts = id.split(':');
  if (parts.length < 4 || parts[0] !== REQUEST_PREFIX) return undefined;
  return { taskId: parts[1] ?? '', nodeId: parts.slice(2, -1).join(':') };
}

/**
 * While a 2025-11-25 `tasks/result` waits on its stream, asks the client for each approval its run comes to wait in:
 * an `elicitation/create` request tagged with the task (MCP tasks, "input_required"), once per node. The answer comes
 * back as a JSON-RPC response (`answerTaskInput`); until then the task reads `input_required`.
 */
export async function askForTaskInput(
  deps: Pick<AppDeps, 'db' | 'keyring'>,
  owner: TaskOwner,
  taskId: string,
  stream: EventStreamResponse,
  signal: AbortSignal,
  log: (error: Error) => void,
): Promise<void> {
  const asked = new Set<string>();
  while (!signal.aborted && !stream.closed) {
    try {
      const row = await findMcpTask(deps.db, owner, taskId);
      const awaiting = row
        ? await awaitingInputOf(deps.keyring, { operator_id: row.operator_id, id: row.run_id, awaiting_input: row.awaiting_input })
        : undefined;
      if (awaiting && !asked.has(awaiting.nodeId)) {
        asked.add(awaiting.nodeId);
        const params = { mode: 'form', message: awaiting.message, requestedSchema: APPROVAL_FORM_SCHEMA, _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
        stream.write(messageFrame({ jsonrpc: '2.0', id: inputRequestId(taskId, awaiting.nodeId), method: 'elicitation/create', params }));
      }
    } catch (error) {
      log(error as Error);
    }
    await sleep(INPUT_CHECK_MS, undefined, { signal }).catch(() => undefined);
  }
}

/**
 * A client's answer to an approval form (a JSON-RPC response to `askForTaskInput`'s request), on whichever instance it
 * lands: for a task of the same key whose run still waits in that node, the run is answered. An error response (the
 * client could not show the form) leaves the approval waiting for the dashboard or its timeout.
 */
export async function answerTaskInput(
  deps: Pick<AppDeps, 'db' | 'keyring' | 'temporal'>,
  owner: TaskOwner,
  message: { id: JsonRpcId | null; result: unknown },
): Promise<void> {
  const asked = parseInputRequestId(message.id);
  if (!asked || !isPlainObject(message.result)) return;
  const row = await findMcpTask(deps.db, owner, asked.taskId);
  if (!row) return;
  const awaiting = await awaitingInputOf(deps.keyring, { operator_id: row.operator_id, id: row.run_id, awaiting_input: row.awaiting_input });
  if (awaiting?.nodeId !== asked.nodeId) return;
  await answerRunApproval(deps.temporal, row.temporal_workflow_id, approvalAnswerOf(asked.nodeId, message.result, owner.apiKeyId));
}
