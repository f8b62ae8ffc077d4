import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument, KYC_SCHEMA_MAP } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const TWO_MB = 2 * 1024 * 1024;
const BYTES_PER_SECOND = 64 * 1024;

/** A KYC answer of about `bytes` bytes. */
function bigAnswer(ref: string, bytes: number) {
  const document = { doc_type: 'passport', kyc_state: 'approved', note: 'x'.repeat(200) };
  return { player_ref: ref, kyc_state: 'approved', documents: Array.from({ length: Math.ceil(bytes / 250) }, () => document) };
}

describe("an organisation's budget of large data (LARGE_PAYLOAD_BYTES_PER_SECOND)", () => {
  const queue = `payload-budget-${randomUUID()}`;
  let worker: WorkerProcess;
  let app: TestApp;
  let supplier: TestProvider;
  const tenants: Array<AutomationsClient & { connectionId: string }> = [];
  const kycCalls = (player: string) => supplier.requests.filter((request) => request.path === `/v1/players/${player}/kyc`).length;

  beforeAll(async () => {
    const budget = { LARGE_PAYLOAD_BYTES_PER_SECOND: String(BYTES_PER_SECOND), LARGE_PAYLOAD_BURST_BYTES: String(1024 * 1024) };
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', ...budget });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
    supplier = await startProvider((request) => {
      const player = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path)?.[1];
      if (player?.startsWith('big-')) return { status: 200, body: bigAnswer(player, TWO_MB) };
      if (player) return { status: 200, body: { player_ref: player, kyc_state: 'approved' } };
      return { status: 404, body: {} };
    });
    for (let index = 0; index < 2; index += 1) {
      const client = await automationsClient(app);
      const { connectionId } = await connectSupplier(app.url, client.key, {
        openapi: kycDocument(supplier.url, { kind: 'none' }),
        schemaMap: KYC_SCHEMA_MAP,
        credentials: {},
      });
      tenants.push({ ...client, connectionId });
    }
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await supplier?.close();
  });

  it('a large answer comes back whole; then the organisation gets 429 with Retry-After, nothing sent, while another is served', async () => {
    const [alice, bob] = tenants as [AutomationsClient & { connectionId: string }, AutomationsClient & { connectionId: string }];
    const big = await callGateway(app.url, alice.key, { connectionId: alice.connectionId, operation: 'kyc.status', params: { playerId: 'big-a1' } });
    expect(big.status).toBe(200);
    expect(big.body.data.documents).toHaveLength(bigAnswer('big-a1', TWO_MB).documents.length);

    const refused = await callGateway(app.url, alice.key, { connectionId: alice.connectionId, operation: 'kyc.status', params: { playerId: 'big-a2' } });
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    // About a megabyte of debt at 64 KiB/s.
    expect(seconds).toBeGreaterThanOrEqual(10);
    expect(seconds).toBeLessThanOrEqual(20);
    expect(refused.body).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: `Large answers of this organisation exceed its budget of ${BYTES_PER_SECOND} bytes a second; retry after ${seconds} s`,
      },
    });
    expect(kycCalls('big-a2')).toBe(0);

    const other = await callGateway(app.url, bob.key, { connectionId: bob.connectionId, operation: 'kyc.status', params: { playerId: 'big-b1' } });
    expect(other.status).toBe(200);
  });

  it("a run's gateway action facing a debt longer than a run may wait fails PAYLOAD_BUDGET_EXCEEDED, not sent", async () => {
    const alice = tenants[0]!;
    const automation = await alice.create(
      chain('Big KYC', [
        { id: 'kyc', type: 'action.gateway', params: { connectionId: alice.connectionId, operation: 'kyc.status', params: { playerId: 'big-a3' } } },
      ]),
    );
    const response = await alice.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: {} });
    expect(response.status).toBe(200);
    const run = response.body.data;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'PAYLOAD_BUDGET_EXCEEDED', nodeId: 'kyc' } });
    expect(run.error.message).toMatch(/^This organisation brought in more large data than its budget allows; it may again in \d+ s$/);
    expect(kycCalls('big-a3')).toBe(0);
  });
});
