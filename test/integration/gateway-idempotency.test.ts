import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { http } from '../helpers/http';
import { startProvider, type ProviderReply, type TestProvider } from '../helpers/providerServer';
import { connectSupplier, kycDocument, KYC_SCHEMA_MAP } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One failure opens a circuit here, so a scenario needs one failed call to set it up; each supplier is its own origin. */
const GATEWAY_ENV = { GATEWAY_TIMEOUT_MS: '2000', GATEWAY_MAX_ATTEMPTS: '1' };

describe('gateway Idempotency-Key, as Stripe keeps it', () => {
  const queue = `gateway-idempotency-${randomUUID()}`;
  const suppliers: TestProvider[] = [];
  let worker: WorkerProcess;
  let app: TestApp;
  let alice: DataClient;
  let bob: DataClient;
  /** Supplier answers are held while set; released when the suite ends. */
  let holding = true;

  /** A KYC supplier answering POST /v1/verifications with `reply()` (held while `hold()` says so), connected for `client`. */
  async function supplier(reply: () => ProviderReply | 'hold', client = alice) {
    const provider = await startProvider(async (request) => {
      if (request.method !== 'POST') return { status: 404, body: {} };
      const answer = reply();
      if (answer !== 'hold') return answer;
      while (holding) await sleep(50);
      return { status: 201, body: {} };
    });
    suppliers.push(provider);
    const openapi = kycDocument(provider.url, { kind: 'none' });
    const { connectionId } = await connectSupplier(app.url, client.key, { openapi, schemaMap: KYC_SCHEMA_MAP, credentials: {} });
    return { provider, connectionId, posts: () => provider.requests.filter((request) => request.method === 'POST') };
  }
  const verify = (connectionId: string, playerId = 'p-1') => ({
    connectionId,
    operation: 'verification.start',
    params: { playerId, documentType: 'passport' },
  });
  const post = (body: unknown, key: string, client = alice) => http(`${app.url}/gateway`, { token: client.key, body, headers: { 'idempotency-key': key } });
  const readCall = (callId: string, client = alice) => http(`${app.url}/gateway/calls/${callId}`, { token: client.key });
  const started = (body: Record<string, unknown>) => ({ status: 201, body: { verification_id: 'ver_1', kyc_state: 'pending', ...body } });

  beforeAll(async () => {
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', GATEWAY_CIRCUIT_FAILURE_THRESHOLD: '1', ...GATEWAY_ENV });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, ...GATEWAY_ENV });
    [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  });
  afterAll(async () => {
    holding = false;
    await app?.close();
    await worker?.stop();
    await Promise.all(suppliers.map((provider) => provider.close()));
  });

  it('a call refused by an open circuit frees its key: its record is final, and once the circuit closes the same key is sent once', async () => {
    let healthy = false;
    const kyc = await supplier(() => (healthy ? started({ player_ref: 'p-1' }) : { status: 500, body: { error: 'down' } }));
    expect((await http(`${app.url}/gateway`, { token: alice.key, body: verify(kyc.connectionId) })).status).toBe(502);
    const key = `order-${randomUUID()}`;

    const circuitOpen = { code: 'CIRCUIT_OPEN', message: `Circuit open for ${kyc.provider.url}; retry after 30 s` };
    const refused = await post(verify(kyc.connectionId), key);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '30']);
    expect(refused.body).toEqual({ success: false, error: circuitOpen, latencyMs: expect.any(Number) });
    expect(kyc.posts()).toHaveLength(1);
    const callId = refused.headers.get('gateway-call-id')!;
    const record = await readCall(callId);
    expect(record.status).toBe(200);
    expect(record.body.data).toMatchObject({ callId, state: 'not_sent', outcome: null, error: circuitOpen });
    expect(record.body.data.finishedAt).not.toBeNull();
    expect((await post(verify(kyc.connectionId), key)).status).toBe(503);

    healthy = true;
    await app.deps
      .db('circuit_breakers')
      .where({ operator_id: alice.operator.operatorId, provider: kyc.provider.url })
      .update({ opened_at: app.deps.db.raw(`opened_at - interval '31 seconds'`) });
    const sent = await post(verify(kyc.connectionId), key);
    expect(sent.status).toBe(200);
    expect(sent.headers.get('gateway-call-id')).toBe(callId);
    expect(sent.body.data).toEqual({ verificationId: 'ver_1', status: 'pending', playerId: 'p-1' });
    const replayed = await post(verify(kyc.connectionId), key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data).toEqual(sent.body.data);
    expect(kyc.posts().filter((request) => request.headers['idempotency-key'] === callId)).toHaveLength(1);
    expect(kyc.posts()).toHaveLength(2);
    const row = await app.deps.db('gateway_calls').where({ operator_id: alice.operator.operatorId, id: callId }).first();
    expect(row).toMatchObject({ state: 'answered', provider_status: 201, ok: true, code: null });
  });

  it('the same key with another connection, operation or params is 422 IDEMPOTENCY_KEY_MISMATCH, and nothing is sent', async () => {
    const kyc = await supplier(() => started({}));
    const other = await supplier(() => started({}));
    const key = `order-${randomUUID()}`;
    expect((await post(verify(kyc.connectionId), key)).status).toBe(200);
    const mismatch = {
      success: false,
      error: {
        code: 'IDEMPOTENCY_KEY_MISMATCH',
        message: `Idempotency-Key '${key}' was already used with a different request (connection, operation or params); use a new Idempotency-Key for a new request`,
      },
    };
    for (const body of [
      verify(kyc.connectionId, 'p-2'),
      { ...verify(kyc.connectionId), params: { playerId: 'p-1' } },
      { ...verify(kyc.connectionId), operation: 'verification.submit' },
      verify(other.connectionId),
    ]) {
      const response = await post(body, key);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(mismatch);
    }
    const reordered = await post({ ...verify(kyc.connectionId), params: { documentType: 'passport', playerId: 'p-1' } }, key);
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(kyc.posts()).toHaveLength(1);
    expect(other.posts()).toHaveLength(0);
  });

  it('a POST the supplier took and never answered is 504 GATEWAY_OUTCOME_UNKNOWN, readable, and a retry hears the same without sending', async () => {
    const kyc = await supplier(() => 'hold');
    const key = `order-${randomUUID()}`;
    const first = await post(verify(kyc.connectionId), key);
    const callId = first.headers.get('gateway-call-id')!;
    const unknown = {
      success: false,
      error: {
        code: 'GATEWAY_OUTCOME_UNKNOWN',
        message: `Call ${callId} was sent to the provider and its outcome is not known yet; do not retry it: read it at GET /gateway/calls/${callId}`,
        details: { callId },
      },
    };
    expect(first.status).toBe(504);
    expect(first.body).toEqual(unknown);
    const record = await readCall(callId);
    expect(record.body.data).toMatchObject({
      callId,
      state: 'outcome_unknown',
      method: 'POST',
      outcome: null,
      error: { code: 'GATEWAY_OUTCOME_UNKNOWN', message: unknown.error.message },
    });
    const retried = await post(verify(kyc.connectionId), key);
    expect(retried.status).toBe(504);
    expect(retried.body).toEqual(unknown);
    await sleep(500);
    expect(kyc.posts()).toHaveLength(1);
    expect(kyc.posts()[0]!.headers['idempotency-key']).toBe(callId);
  }, 30_000);

  it('a POST whose connection never opened is 502 and frees its key: the retry is tried again, not replayed', async () => {
    const gone = await supplier(() => started({}));
    await gone.provider.close();
    const key = `order-${randomUUID()}`;
    const refused = await post(verify(gone.connectionId), key);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_ERROR', message: expect.stringMatching(/^Provider unreachable: /) },
      data: null,
    });
    const record = await readCall(refused.headers.get('gateway-call-id')!);
    expect(record.body.data).toMatchObject({ state: 'not_sent', outcome: null, error: { code: 'PROVIDER_UNREACHABLE', message: refused.body.error.message } });
    const retried = await post(verify(gone.connectionId), key);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.error.code).toBe('CIRCUIT_OPEN');
  });

  it("operator B neither reads A's call nor collides with A's key", async () => {
    const aliceKyc = await supplier(() => started({}));
    const bobKyc = await supplier(() => started({}), bob);
    const key = `order-${randomUUID()}`;
    const mine = await post(verify(aliceKyc.connectionId), key);
    expect(mine.status).toBe(200);
    const callId = mine.headers.get('gateway-call-id')!;
    expect((await readCall(callId, bob)).body).toEqual({ success: false, error: { code: 'GATEWAY_CALL_NOT_FOUND', message: 'Gateway call not found' } });
    const theirs = await post(verify(bobKyc.connectionId, 'p-9'), key, bob);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.headers.get('gateway-call-id')).not.toBe(callId);
    expect(bobKyc.posts()).toHaveLength(1);
    const onAlicesConnection = await post(verify(aliceKyc.connectionId), `bob-${randomUUID()}`, bob);
    expect(onAlicesConnection.status).toBe(404);
    expect(aliceKyc.posts()).toHaveLength(1);
    expect((await readCall(callId)).body.data).toMatchObject({ state: 'answered', connectionId: aliceKyc.connectionId });
  });
});
