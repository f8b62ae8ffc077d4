import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';

let app: TestApp;
let alice: DataClient;
let bob: DataClient;
beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await alice.call('/entities', { body: { entityType: 'player', externalId: 'shared-id', data: { first_name: 'Alice' } } });
  await alice.call('/entities/shared-id/events', { body: { eventType: 'session', data: { device: 'web' } } });
  await alice.call('/entities/shared-id/state/balance', { method: 'PUT', body: { value: 100 } });
});
afterAll(() => app.close());

describe("tenant isolation: operator B and operator A's data", () => {
  it("B cannot read, list, erase, append to or set state on A's entity", async () => {
    const attempts = await Promise.all([
      bob.call('/entities/shared-id'),
      bob.call('/entities/shared-id/events'),
      bob.call('/entities/shared-id/state'),
      bob.call('/entities/shared-id/state/balance'),
      bob.call('/entities/shared-id', { method: 'DELETE' }),
      bob.call('/entities/shared-id/events', { body: { eventType: 'session', data: {} } }),
      bob.call('/entities/shared-id/state/balance', { method: 'PUT', body: { value: 0 } }),
    ]);
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ENTITY_NOT_FOUND');
    }
    const a = await alice.call('/entities/shared-id');
    expect(a.body.data.data).toEqual({ first_name: 'Alice' });
    expect((await alice.call('/entities/shared-id/state/balance')).body.data.value).toBe(100);
    expect((await alice.call('/entities/shared-id/events')).body.count).toBe(1);
  });

  it('the same externalId is a different entity per operator', async () => {
    const created = await bob.call('/entities', { body: { entityType: 'player', externalId: 'shared-id', data: { first_name: 'Bob' } } });
    expect(created.status).toBe(201);
    expect((await alice.call('/entities/shared-id')).body.data.data.first_name).toBe('Alice');
    expect((await bob.call('/entities/shared-id')).body.data.data.first_name).toBe('Bob');
  });

  it("B's batches cannot touch A's entities; B cannot read A's jobs", async () => {
    const submitted = await bob.call('/batch/states', { body: [{ externalId: 'only-alice-has-this', stateKey: 'balance', value: 1 }] });
    const job = await waitForJob(bob, submitted.body.data.jobId);
    expect(job.output.errors[0].code).toBe('ENTITY_NOT_FOUND');
    await alice.call('/entities', { body: { entityType: 'player', externalId: 'only-alice-has-this', data: {} } });
    const again = await waitForJob(
      bob,
      (await bob.call('/batch/states', { body: [{ externalId: 'only-alice-has-this', stateKey: 'balance', value: 1 }] })).body.data.jobId,
    );
    expect(again.output.failed).toBe(1);
    expect((await alice.call(`/batch/jobs/${submitted.body.data.jobId}`)).status).toBe(404);
  });
});
