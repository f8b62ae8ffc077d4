import type { Actor } from '../../core/audit';
import type { CommandDeps } from '../deps';
import { recordAuditAct } from '../audit';

/**
 * Puts a test run on the audit trail (`automation.test_run_started`, target the workflow, the run's id in the summary)
 * once its Temporal run has started: a test run acts as the workflow would (it sends, calls, writes), so who started
 * one is kept like a change. The payload is not kept, only the run's id.
 */
export async function auditTestRun(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; actor: Actor; automationId: string; workflowVersion: number; runId: string },
): Promise<void> {
  await recordAuditAct(deps.db, {
    operatorId: input.operatorId,
    actor: input.actor,
    action: 'automation.test_run_started',
    target: { type: 'automation', id: input.automationId },
    record: { runId: input.runId, workflowVersion: input.workflowVersion },
    summary: `Test run ${input.runId} on version ${input.workflowVersion}`,
  });
}
