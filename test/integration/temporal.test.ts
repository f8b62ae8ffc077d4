import { runDiagnostics } from '../../temporal/diagnostics';
import { startTestApp, type TestApp } from '../helpers/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('Temporal wiring', () => {
  it('runs a workflow whose activity reads PostgreSQL, through the real server and worker', async () => {
    const result = await runDiagnostics(app.deps.temporal, 'hello');
    expect(result.echo).toBe('hello');
    expect(Math.abs(Date.parse(result.databaseTime) - Date.now())).toBeLessThan(60_000);

    const history = await app.deps.temporal.client.workflow.getHandle(result.workflowId).fetchHistory();
    const activities = (history.events ?? []).filter((event) => event.activityTaskCompletedEventAttributes);
    expect(activities).toHaveLength(1);
  });
});
