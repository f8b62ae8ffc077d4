import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../core/apiKeyToken';
import { loadConfig } from '../../core/config';
import { signAccessToken } from '../../core/sessionToken';
import { freePort } from '../../devstack/freePort';
import { findTemporalCli } from '../../devstack/temporalCli';
import { startTemporalDevServer } from '../../devstack/temporalDevServer';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { startProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument } from '../helpers/suppliers';

const MESSAGE = 'Service temporarily unavailable; retry shortly';
/** Driver, network and stack wording that must never reach a client. */
const LEAK = /ECONN|terminat|postgres|knex|grpc|DEADLINE|stack|\bat \S+ \(/i;

describe('PostgreSQL out of reach', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${await freePort()}/operator_platform` });
  });
  afterAll(async () => {
    await app.close();
  });

  it('the data API answers 503 SERVICE_UNAVAILABLE with Retry-After, in its coded envelope, at once', async () => {
    const started = Date.now();
    const response = await http(`${app.url}/operator-data-api/entities/p-1/events`, { token: generateApiKey(), body: { eventType: 'bonus', data: {} } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: MESSAGE } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('key management answers 503 in its text envelope', async () => {
    const token = await signAccessToken(
      { userId: randomUUID(), operatorId: randomUUID(), memberId: randomUUID(), sessionVersion: 1 },
      loadConfig().JWT_SECRET!,
      60,
    );
    const response = await http(`${app.url}/api-keys`, { token });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ success: false, error: MESSAGE });
  });

  it('MCP answers 503 with the service code as JSON-RPC -32001', async () => {
    const response = await http(`${app.url}/mcp-server`, {
      token: generateApiKey(),
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'code: SERVICE_UNAVAILABLE' } });
    expect(response.text).not.toMatch(LEAK);
  });
});

describe('Temporal out of reach', () => {
  it('a synchronous gateway call answers 503 within its timeout, not 500 and not a hang', async () => {
    const binary = await findTemporalCli({ explicitPath: loadConfig().TEMPORAL_CLI_PATH, log: () => undefined });
    const temporal = await startTemporalDevServer({ binary, port: await freePort(), namespace: 'default', logLevel: 'error', log: () => undefined });
    const app = await startTestApp({ TEMPORAL_ADDRESS: temporal.address, GATEWAY_TIMEOUT_MS: '1000', GATEWAY_MAX_ATTEMPTS: '1' });
    const provider = await startProvider(() => ({ status: 200, body: { player_ref: 'p', kyc_state: 'approved' } }));
    try {
      const operator = await signupOperator(app.url);
      const { key } = await createApiKey(app.url, operator);
      const { connectionId } = await connectSupplier(app.url, key, { openapi: kycDocument(provider.url, { kind: 'none' }), credentials: {} });
      await temporal.stop();
      const started = Date.now();
      const response = await callGateway(app.url, key, { connectionId, operation: 'kyc.status', params: { player_ref: 'p' } });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: MESSAGE } });
      // The client's gRPC retries (about 20 s) or the call's deadline (1 × (1 s + 7 s) + 15 s here), whichever comes first.
      expect(elapsed).toBeLessThan(30_000);
    } finally {
      await provider.close();
      await app.close();
      await temporal.stop();
    }
  }, 90_000);
});
