import { createRunActivities } from '../../activities/automation/runs';
import { createLogger } from '../../core/logger';
import { prefixedId } from '../../core/ids';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

/** The run bookends called as Temporal calls them, including the retry of a begin whose result was lost. */
describe('beginAutomationRun retried after it committed', () => {
  let app: TestApp;
  let client: AutomationsClient;
  let activities: ReturnType<typeof createRunActivities>;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    activities = createRunActivities({ db: app.deps.db, config: app.deps.config, logger: createLogger('silent'), keyring: app.deps.keyring });
  });
  afterAll(() => app.close());

  it('carries on with the same run (no second reservation); another run id for the same Temporal id is a duplicate', async () => {
    const workflow = await client.create(
      chain('Two waits', [
        { id: 'a', type: 'action.delay', params: { seconds: 1 } },
        { id: 'b', type: 'action.delay', params: { seconds: 1 } },
      ]),
    );
    const input = {
      operatorId: client.operator.operatorId,
      automationId: workflow.id,
      source: 'manual' as const,
      input: {},
      runId: prefixedId('run'),
      temporalWorkflowId: `retry-test-${workflow.id}`,
      startedAt: new Date().toISOString(),
    };
    const first = await activities.beginAutomationRun(input);
    expect(first).toMatchObject({ kind: 'started', runId: input.runId, reserved: { actions: 2, aiActions: 0 } });
    const usage = async () => (await client.wf('/usage')).body.data.actions.used;
    expect(await usage()).toBe(2);

    const retried = await activities.beginAutomationRun(input);
    expect(retried).toMatchObject({ kind: 'started', runId: input.runId, reserved: { actions: 2, aiActions: 0 } });
    expect(await usage()).toBe(2);

    expect(await activities.beginAutomationRun({ ...input, runId: prefixedId('run') })).toEqual({ kind: 'duplicate', runId: input.runId });

    await activities.finishAutomationRun({
      operatorId: input.operatorId,
      runId: input.runId,
      status: 'completed',
      output: null,
      nodes: [],
      error: null,
      executed: { actions: 1, aiActions: 0 },
    });
    await activities.finishAutomationRun({
      operatorId: input.operatorId,
      runId: input.runId,
      status: 'completed',
      output: null,
      nodes: [],
      error: null,
      executed: { actions: 0, aiActions: 0 },
    });
    expect(await usage()).toBe(1);
    expect((await client.wf(`/runs/${input.runId}`)).body.data).toMatchObject({ status: 'completed' });
  });
});
