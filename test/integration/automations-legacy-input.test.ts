import { automationRunWorkflow } from '../../workflows/automationRun';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

/**
 * Temporal Schedules created before `automationId` keep starting runs with `{ workflowId }` as the automation's id:
 * the run workflow still reads it, so those schedules keep firing after an upgrade.
 */
describe('an automation run started with the input written before the rename', () => {
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
  });
  afterAll(() => app.close());

  it('runs the automation its workflowId names, and records the run', async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 'p-legacy', data: {} } });
    const automation = await client.create(
      chain('Legacy input', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-legacy', key: 'risk_score', value: 1 } }]),
    );
    const legacyInput = { operatorId: client.operator.operatorId, workflowId: automation.id, source: 'manual' as const, input: {} };
    const result = await app.deps.temporal.client.workflow.execute(automationRunWorkflow, {
      args: [legacyInput as unknown as Parameters<typeof automationRunWorkflow>[0]],
      taskQueue: app.deps.temporal.taskQueue,
      workflowId: `legacy-input-${automation.id}`,
    });
    expect(result).toEqual({ kind: 'finished', runId: expect.stringMatching(/^run_/) });
    const stored = await app.deps.db('automation_runs').where({ operator_id: client.operator.operatorId, automation_id: automation.id }).first('id', 'status');
    expect(stored).toEqual({ id: result.kind === 'finished' ? result.runId : '', status: 'completed' });
  });
});
