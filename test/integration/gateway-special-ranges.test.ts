import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { createApiKey, signupOperator } from '../helpers/identity';
import { callGateway, connectSupplier, kycDocument } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/**
 * The address policy against IANA's special-purpose ranges, through the whole stack: a worker with
 * `GATEWAY_ALLOW_PRIVATE_NETWORKS=false` refuses them for `/gateway` and `action.http_request` alike. When this
 * machine has a TEST-NET address (192.0.2.0/24 here), a real listener there proves nothing is sent.
 */
const TEST_NETS = [/^192\.0\.2\./, /^198\.51\.100\./, /^203\.0\.113\./];
const localTestNet = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry?.family === 'IPv4' && TEST_NETS.some((net) => net.test(entry.address)))?.address;

interface Listener {
  host: string;
  port: number;
  received: string[];
  close(): Promise<void>;
}

async function listenOnTestNet(): Promise<Listener> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.end('{}');
  });
  const host = localTestNet ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: localTestNet ?? '192.0.2.1',
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const refusal = (host: string) => `refused to connect to ${host}: private, loopback and link-local addresses are not allowed`;

let worker: WorkerProcess;
let app: TestApp;
let target: Listener;

beforeAll(async () => {
  const queue = `ssrf-${randomUUID()}`;
  worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'false' });
  app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'false' });
  target = await listenOnTestNet();
});
afterAll(async () => {
  await app?.close();
  await worker?.stop();
  await target?.close();
});

describe('POST /gateway to a special-purpose address', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createApiKey(app.url, await signupOperator(app.url, 'SSRF Casino'))).key;
  });

  it.each([
    ['TEST-NET-1 (192.0.2.0/24)', () => `http://${target.host}:${target.port}`, () => target.host],
    ['TEST-NET-2 (198.51.100.0/24)', () => `http://198.51.100.7:${target.port}`, () => '198.51.100.7'],
    ['TEST-NET-3 (203.0.113.0/24)', () => `http://203.0.113.9:${target.port}`, () => '203.0.113.9'],
    ['IPv4-mapped TEST-NET-1', () => `http://[::ffff:192.0.2.1]:${target.port}`, () => '::ffff:c000:201'],
    ['NAT64 of TEST-NET-1 (64:ff9b::/96)', () => `http://[64:ff9b::192.0.2.1]:${target.port}`, () => '64:ff9b::c000:201'],
    ['6to4 (2002::/16)', () => `http://[2002:c000:201::1]:${target.port}`, () => '2002:c000:201::1'],
    ['site-local (fec0::/10)', () => `http://[fec0::1]:${target.port}`, () => 'fec0::1'],
    ['IPv4-compatible (::a.b.c.d)', () => `http://[::8.8.8.8]:${target.port}`, () => '::808:808'],
  ])('refuses %s: 400 DESTINATION_NOT_ALLOWED, nothing sent', async (_name, base, host) => {
    const { connectionId } = await connectSupplier(app.url, key, { openapi: kycDocument(base(), { kind: 'none' }), credentials: {} });
    const response = await callGateway(app.url, key, { connectionId, operation: 'kyc.status', params: { player_ref: 'p' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: { code: 'DESTINATION_NOT_ALLOWED', message: refusal(host()) } });
    expect(target.received).toEqual([]);
  });
});

describe('action.http_request to a special-purpose address', () => {
  let client: AutomationsClient;
  beforeAll(async () => {
    client = await automationsClient(app);
  });

  // A literal private address is refused at save time (http-request-private-url.test.ts): a host a template builds is
  // what reaches the run-time guard, as a hostname resolving to one would.
  it('fails the node with DESTINATION_NOT_ALLOWED and sends nothing', async () => {
    const workflow = await client.create(
      chain('Call TEST-NET', [
        { id: 'call', type: 'action.http_request', params: { method: 'POST', url: `http://{{ '${target.host}' }}:${target.port}/hook`, body: { a: 1 } } },
      ]),
    );
    const response = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'DESTINATION_NOT_ALLOWED', message: refusal(target.host), nodeId: 'call' },
    });
    expect(target.received).toEqual([]);
  });
});
