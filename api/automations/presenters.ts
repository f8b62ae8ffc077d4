import type { AutomationRunRecord } from '../../core/automations/types';
import type { AutomationRow } from '../../db/queries/automations';

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
  };
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
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
