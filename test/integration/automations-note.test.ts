import { temporal } from '@temporalio/proto';
import { rawHistory } from '../helpers/temporalHistory';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

/**
 * `action.note`, the node type added as one folder (core/automations/nodes/note/, docs/workflows.md "Adding a node
 * type"): validated like every type, run through Temporal by the shared worker, inline in the workflow.
 */
describe('action.note', () => {
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
  });
  afterAll(() => app.close());

  it('is refused 400 naming the field when its text is missing or not a string, and an unknown param', async () => {
    const response = await client.wf('/workflows', {
      method: 'POST',
      body: {
        name: 'Bad notes',
        nodes: [
          { id: 'start', type: 'trigger.manual', params: {} },
          { id: 'a', type: 'action.note', params: {} },
          { id: 'b', type: 'action.note', params: { text: 42, colour: 'red' } },
        ],
        edges: [
          { from: 'start', to: 'a' },
          { from: 'a', to: 'b' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details).toEqual([
      { field: 'nodes[1].params.text', message: 'is required' },
      { field: 'nodes[2].params.colour', message: 'unknown parameter' },
      { field: 'nodes[2].params.text', message: 'must be a string' },
    ]);
  });

  it('runs through Temporal: its rendered text is its input, { noted: true } its output, and it schedules no activity', async () => {
    const workflow = await client.create(
      chain('Noted', [
        { id: 'note', type: 'action.note', params: { text: 'Reached {{ trigger.playerId }}' } },
        { id: 'after', type: 'action.note', params: { text: 'noted: {{ nodes.note.noted }}' } },
      ]),
    );
    const response = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-7' } });
    expect(response.status).toBe(200);
    const run = response.body.data;
    expect(run.status).toBe('completed');
    expect(run.nodes.map(({ durationMs: _, ...node }: any) => node)).toEqual([
      { id: 'start', status: 'completed', output: { playerId: 'p-7' } },
      { id: 'note', status: 'completed', input: { text: 'Reached p-7' }, output: { noted: true } },
      { id: 'after', status: 'completed', input: { text: 'noted: true' }, output: { noted: true } },
    ]);
    expect(run.output).toEqual({ noted: true });

    const { history } = await rawHistory(app, run.temporalWorkflowId);
    const types = (history.events ?? []).map((event) => event.eventType);
    expect(types.length).toBeGreaterThan(0);
    expect(types.filter((type) => type === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toEqual([]);
  });
});
