import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { spawnWorker } from '../helpers/worker';
import { createApiKey, signupOperator } from '../helpers/identity';
import { startProvider, type ProviderAuth, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';

async function appWithWorker(env: Record<string, string>, workerOnly: Record<string, string> = {}) {
  const queue = `gw-${randomUUID()}`;
  const worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, ...env, ...workerOnly });
  const app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, ...env });
  const operator = await signupOperator(app.url, 'Worker Casino');
  const key = (await createApiKey(app.url, operator)).key;
  return { worker, app, operator, key };
}

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('with GATEWAY_ALLOW_PRIVATE_NETWORKS=false (the default)', () => {
  let env: Awaited<ReturnType<typeof appWithWorker>>;
  let provider: TestProvider;
  beforeAll(async () => {
    env = await appWithWorker({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'false' });
    provider = await startKycSupplier({ kind: 'none' });
    closers.push(env.worker.stop, env.app.close, provider.close);
  });

  it.each([
    ['a loopback IP', () => provider.url, '127.0.0.1'],
    ['a name resolving to loopback', () => `http://localhost:${provider.port}`, 'localhost'],
  ])('refuses %s: 400 DESTINATION_NOT_ALLOWED, nothing sent', async (_name, base, host) => {
    const { connectionId } = await connectSupplier(env.app.url, env.key, { openapi: kycDocument(base(), { kind: 'none' }), credentials: {} });
    const response = await callGateway(env.app.url, env.key, { connectionId, operation: 'kyc.status', params: { player_ref: 'p' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'DESTINATION_NOT_ALLOWED', message: `refused to connect to ${host}: private, loopback and link-local addresses are not allowed` },
    });
    expect(provider.requests).toHaveLength(0);
  });
});

describe('a second worker process', () => {
  let env: Awaited<ReturnType<typeof appWithWorker>>;
  let shared: TestApp;
  beforeAll(async () => {
    env = await appWithWorker({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' }, { LOG_LEVEL: 'info' });
    shared = await startTestApp();
    closers.push(env.worker.stop, env.app.close, shared.close);
  });

  it('logs each call with ids, operation, method, path template, status and latency, never credentials or bodies', async () => {
    const auth: ProviderAuth = { kind: 'apiKeyQuery', name: 'api_key', value: 'query-secret-9f8e7d' };
    const provider = await startKycSupplier(auth);
    closers.push(provider.close);
    const { connectionId } = await connectSupplier(env.app.url, env.key, {
      openapi: kycDocument(provider.url, auth),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: credentialsFor(auth),
    });
    const response = await callGateway(env.app.url, env.key, {
      connectionId,
      operation: 'verification.start',
      params: { playerId: 'p-77', firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(response.status).toBe(200);
    expect(provider.requests[0]!.query.get('api_key')).toBe('query-secret-9f8e7d');

    const entry = env.worker.lines.map((line) => JSON.parse(line.startsWith('{') ? line : '{}')).find((line) => line.msg === 'gateway call');
    expect(entry).toMatchObject({
      operatorId: env.operator.operatorId,
      connectionId,
      operation: 'verification.start',
      method: 'POST',
      path: '/verifications',
      status: 201,
      latencyMs: expect.any(Number),
      outcome: 'completed',
    });
    const all = env.worker.lines.join('\n');
    for (const secret of ['query-secret-9f8e7d', 'Lovelace', 'p-77', 'api_key=']) expect(all).not.toContain(secret);
  });

  it('sees the circuit opened through another worker: the state lives in PostgreSQL', async () => {
    const provider = await startProvider(() => ({ status: 500, body: { error: 'down' } }));
    closers.push(provider.close);
    const { connectionId } = await connectSupplier(shared.url, env.key, { openapi: kycDocument(provider.url, { kind: 'none' }), credentials: {} });
    for (let i = 0; i < 5; i += 1) {
      expect((await callGateway(shared.url, env.key, { connectionId, operation: 'verification.start' })).status).toBe(502);
    }
    const response = await callGateway(env.app.url, env.key, { connectionId, operation: 'verification.start' });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('CIRCUIT_OPEN');
    expect(provider.requests).toHaveLength(5);
  });
});
