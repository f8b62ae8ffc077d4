import type { AutomationRunRecord } from '../../core/automations/types';
import { taskStatusOf, type TaskStatus } from '../../core/mcpTasks';
import type { AutomationRow } from '../../db/queries/automations';
import type { RunTaskRow } from '../../db/queries/mcpTasks';

/**
 * A test run still going whose first step has not been recorded yet (a busy or restarting worker). Stored
 * runs are presented by core/automations/runRecord.ts.
 */
export function runningRunRecord(runId: string, automation: AutomationRow, input: unknown): AutomationRunRecord {
  return {
    id: runId,
    workflowId: automation.id,
    workflowVersion: automation.version,
    source: 'manual',
    status: 'running',
    input,
    output: null,
    nodes: [],
    startedAt: new Date().toISOString(),
    completedAt: null,
    durationMs: null,
    rerunOf: null,
    rerunFromNodeId: null,
    replayId: null,
  };
}

/** A run record as `/workflows-api` shows it: for a run an agent started as an MCP task, `task` names it. */
export type RunRecordWithTask = AutomationRunRecord & { task?: { id: string; status: TaskStatus } };

/**
 * A run record with the MCP task behind it (docs/mcp.md "Tasks"), `{ id, status }` with the status an agent reads in
 * `tasks/get` (core/mcpTasks.ts `taskStatusOf`: `input_required` while the run waits for an approval); no `task` for a
 * run that is not one's, or whose task has expired.
 */
export function withTask(record: AutomationRunRecord, task: RunTaskRow | undefined): RunRecordWithTask {
  return task ? { ...record, task: { id: task.id, status: taskStatusOf(record.status, task.cancel_requested, task.awaiting_input) } } : record;
}

/** An automation as `/workflows-api/workflows` shows it (DESIGN.md "Workflows"). */
export function toAutomationRecord(row: AutomationRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    mcp_exposed: row.mcp_exposed,
    mcp_tool_name: row.mcp_tool_name,
    version: row.version,
    nodes: row.nodes,
    edges: row.edges,
    layout: row.layout,
    run_control: row.run_control,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
