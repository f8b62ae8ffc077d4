import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DiagnosticsInput, DiagnosticsResult } from '../core/workflowContracts';

const { databaseClock } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 5, initialInterval: '200 milliseconds' },
});

/**
 * Proves the whole chain (client → server → worker → activity → PostgreSQL) works: used by the
 * end-to-end test and `npm run cli -- diagnose`.
 */
export async function diagnosticsWorkflow(input: DiagnosticsInput): Promise<DiagnosticsResult> {
  const { now } = await databaseClock({});
  return { echo: input.message, databaseTime: now, workflowTime: new Date().toISOString() };
}
