import { randomUUID } from 'node:crypto';
import type { diagnosticsWorkflow } from '../../workflows';
import { startTestApp, type TestApp } from '../helpers/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('Temporal wiring', () => {
  it('runs a workflow whose activity reads PostgreSQL, through the real server and worker', async () => {
    const workflowId = `diagnostics-${randomUUID()}`;
    const result = await app.deps.temporal.client.workflow.execute<typeof diagnosticsWorkflow>('diagnosticsWorkflow', {
      taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
      workflowId,
      args: [{ message: 'hello' }],
      workflowExecutionTimeout: '30 seconds',
    });
    expect(result.echo).toBe('hello');
    expect(Math.abs(Date.parse(result.databaseTime) - Date.now())).toBeLessThan(60_000);

    const history = await app.deps.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    const activities = (history.events ?? []).filter((event) => event.activityTaskCompletedEventAttributes);
    expect(activities).toHaveLength(1);
  });
});
