import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { DiagnosticsResult } from '../core/workflowContracts';
import { diagnosticsWorkflow } from '../workflows/diagnostics';

/**
 * Runs the diagnostics workflow (one normal activity that reads PostgreSQL) and waits for it: the floor of
 * any request that goes through the server, and the benchmarks' baseline.
 *
 * @example const { databaseTime } = await runDiagnostics(temporal, 'hello')
 */
export async function runDiagnostics(
  temporal: { client: Client; taskQueue: string; eagerStart: boolean },
  message: string,
): Promise<DiagnosticsResult & { workflowId: string }> {
  const workflowId = `diagnostics-${randomUUID()}`;
  const result = await temporal.client.workflow.execute(diagnosticsWorkflow, {
    taskQueue: temporal.taskQueue,
    workflowId,
    args: [{ message }],
    workflowExecutionTimeout: '30 seconds',
    requestEagerStart: temporal.eagerStart,
  });
  return { ...result, workflowId };
}
