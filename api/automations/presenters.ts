import type { AutomationRunRecord } from '../../core/automations/types';
import type { AutomationRow } from '../../db/queries/automations';

/**
 * A test run still going whose first step has not been recorded yet (a busy or restarting worker). Stored
 * runs and automations are presented by core/automations/runRecord.ts and `toAutomationRecord`.
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
