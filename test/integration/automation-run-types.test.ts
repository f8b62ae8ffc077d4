import type { temporal } from '@temporalio/proto';
import { automationRunWorkflow } from '../../workflows/automationRun';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { rawHistory } from '../helpers/temporalHistory';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The patch ids of a history's patch markers (the SDK writes their details as plain JSON, not through the codec). */
const patchesIn = (events: Event[]) =>
  events.flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_patch') return [];
    return [JSON.parse(Buffer.from(marker.details?.['patch-data']?.payloads?.[0]?.data ?? []).toString('utf8')).id as string];
  });
const upsertsIn = (events: Event[]) => events.filter((event) => event.upsertWorkflowSearchAttributesEventAttributes).length;
const localActivitiesIn = (events: Event[]) => events.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
/** Each node of the automation below, as a run that took the `when: true` branch records it. */
const ALL_COMPLETED = [
  ['start', 'completed'],
  ['known', 'completed'],
  ['tell', 'completed'],
];

/**
 * Runs are started as `automationRunV2Workflow` (docs/workflows.md#versioning): the interpreter of
 * `automationRunWorkflow`, taking every patch made before it without a marker. Both types run a condition and a
 * templated action to the same outcome; only the old type pays for the patches in its history.
 */
describe('the run workflow types', () => {
  let app: TestApp;
  let client: AutomationsClient;
  let hook: TestProvider;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    hook = await startProvider(() => ({ status: 200, body: { received: true } }));
  });
  afterAll(async () => {
    await hook?.close();
    await app?.close();
  });

  const definition = () => ({
    name: `Both types ${Date.now()}`,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } } } } },
      { id: 'known', type: 'condition', params: { expression: 'trigger.playerId' } },
      { id: 'tell', type: 'action.http_request', params: { method: 'GET', url: `${hook.url}/player/{{ trigger.playerId }}` } },
    ],
    edges: [
      { from: 'start', to: 'known' },
      { from: 'known', to: 'tell', when: true },
    ],
  });

  it('a run the API starts is a V2 run: no patch marker and no search-attribute upsert in its history, its condition and template filled in the run', async () => {
    const automation = await client.create(definition());
    const response = await client.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: { playerId: 'p-v2' } });
    expect(response.status).toBe(200);
    const run = response.body.data;
    expect(run.status).toBe('completed');
    expect(run.nodes.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual(ALL_COMPLETED);
    expect(hook.requests.map((request) => request.path)).toContain('/player/p-v2');

    const { history } = await rawHistory(app, run.temporalWorkflowId);
    const events = history.events ?? [];
    expect(events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('automationRunV2Workflow');
    expect(patchesIn(events)).toEqual([]);
    expect(upsertsIn(events)).toBe(0);
    // Plain paths are filled by the run itself: no sandbox local activity (begin and end are the API's).
    expect(localActivitiesIn(events)).toBe(0);
  });

  it('the same automation run as automationRunWorkflow records both patches it asks for, and ends the same', async () => {
    const automation = await client.create(definition());
    const workflowId = `run-type-v1-${automation.id}`;
    const result = await app.deps.temporal.client.workflow.execute(automationRunWorkflow, {
      args: [{ operatorId: client.operator.operatorId, automationId: automation.id, source: 'manual', input: { playerId: 'p-v1' } }],
      taskQueue: app.deps.temporal.taskQueue,
      workflowId,
    });
    expect(result).toEqual({ kind: 'finished', runId: expect.stringMatching(/^run_/) });
    const run = (await client.wf(`/runs/${result.kind === 'finished' ? result.runId : ''}`)).body.data;
    expect(run.status).toBe('completed');
    expect(run.nodes.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual(ALL_COMPLETED);
    expect(hook.requests.map((request) => request.path)).toContain('/player/p-v1');

    const { history } = await rawHistory(app, workflowId);
    const events = history.events ?? [];
    expect(patchesIn(events)).toEqual(['expressions-in-sandbox', 'plain-paths-inline']);
    expect(upsertsIn(events)).toBeGreaterThan(0);
  });
});
