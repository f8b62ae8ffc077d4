import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';

/** The editor's places of the steps: stored beside the definition, returned with it, and never a new version. */
describe('a workflow’s layout', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  const definition = chain('Laid out', [
    { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
    { id: 'again', type: 'action.delay', params: { seconds: 2 } },
  ]);

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(() => app.close());

  it("another operator cannot move A's steps: 404 WORKFLOW_NOT_FOUND, and nothing changes", async () => {
    const workflow = await acme.create({ ...definition, layout: { start: { x: 0, y: 0 } } });
    const moved = await rival.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { ...definition, layout: { start: { x: 9, y: 9 } } } });
    expect(moved).toMatchObject({ status: 404, body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } } });
    const stored = await app.deps.db('automations').where({ id: workflow.id }).first('layout', 'version');
    expect(stored).toEqual({ layout: { start: { x: 0, y: 0 } }, version: 1 });
  });

  it('refuses places of unknown steps and coordinates that are not numbers in range, naming each', async () => {
    const refused = await acme.wf('/workflows', {
      method: 'POST',
      body: { ...definition, layout: { ghost: { x: 1, y: 1 }, start: { x: 'left', y: 0 }, wait: { x: 1e9, y: 0 }, again: { x: 1, y: 2, z: 3 } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([
      { field: 'layout.ghost', message: 'unknown node "ghost"' },
      { field: 'layout.start', message: 'must be { x, y } with numbers from -1000000 to 1000000' },
      { field: 'layout.wait', message: 'must be { x, y } with numbers from -1000000 to 1000000' },
      { field: 'layout.again', message: 'must be { x, y } with numbers from -1000000 to 1000000' },
    ]);
    expect((await acme.wf('/workflows', { method: 'POST', body: { ...definition, layout: [] } })).body.error.details).toEqual([
      { field: 'layout', message: 'must be an object of node ids to { x, y }' },
    ]);
  });

  it('is stored rounded and returned; moving steps keeps the version, changing the definition bumps it and keeps the places of the steps left', async () => {
    const created = await acme.create({ ...definition, layout: { start: { x: 40.4, y: 40 }, wait: { x: 340, y: 40.6 } } });
    expect(created).toMatchObject({ version: 1, layout: { start: { x: 40, y: 40 }, wait: { x: 340, y: 41 } } });

    const moved = await acme.wf(`/workflows/${created.id}`, {
      method: 'PUT',
      body: { ...definition, layout: { start: { x: 0, y: 0 }, wait: { x: 300, y: 0 }, again: { x: 600, y: 0 } } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ version: 1, layout: { start: { x: 0, y: 0 }, wait: { x: 300, y: 0 }, again: { x: 600, y: 0 } } });

    const shorter = chain('Laid out', [{ id: 'wait', type: 'action.delay', params: { seconds: 1 } }]);
    const changed = await acme.wf(`/workflows/${created.id}`, { method: 'PUT', body: shorter });
    expect(changed.body.data).toMatchObject({ version: 2, layout: { start: { x: 0, y: 0 }, wait: { x: 300, y: 0 } } });
    expect(changed.body.data.layout).not.toHaveProperty('again');
    const read = await acme.wf(`/workflows/${created.id}`);
    expect(read.body.data).toMatchObject({ version: 2, layout: { start: { x: 0, y: 0 }, wait: { x: 300, y: 0 } } });
  });
});
