import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { loadConfig } from '../../core/config';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { createDb } from '../../db/knex';
import { postgresPayloadStore } from '../../db/queries/temporalPayloads';
import { resolveKeyring } from '../../processes/devSecrets';
import { FAILURE_CONVERTER_PATH, PlatformPayloadCodec } from '../../temporal/dataConverter';
import { PLATFORM_SCHEDULE_IDS } from '../../temporal/platformSchedules';
import { payloadsIn } from '../../temporal/historyPayloads';
import { workflowTracingSinks } from '../../worker/tracing';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, rpc, toolAutomation } from '../helpers/mcp';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/** A span as the loopback collector keeps it: OTLP/JSON flattened, with the service that sent it. */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const SERVER = 2;
/** Travels in query strings, which no span may carry. */
const SECRET = 'tracing-query-secret';
const CLIENT = 3;

/** OTLP/JSON ids are hex; protobuf-style JSON would carry base64, which this normalises too. */
const hex = (id: string) => (/^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));

const valueOf = (value: Record<string, unknown>) => Object.values(value)[0];

/** A loopback OTLP/HTTP collector: records every span POSTed to /v1/traces. */
async function startCollector(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource.attributes.find((attribute: any) => attribute.key === 'service.name');
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                service: String(valueOf(service.value)),
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                name: span.name,
                kind: span.kind,
                attributes: Object.fromEntries((span.attributes ?? []).map((attribute: any) => [attribute.key, valueOf(attribute.value)])),
              });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The API (`processes/api.ts`) in its own process, as production runs it; its stdout lines are its log. */
async function spawnApi(env: Record<string, string>): Promise<{ url: string; lines: string[]; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'processes/api.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"API listening"')) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`API exited with ${code}`)));
  });
  return { url, lines, child };
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let provider: TestProvider;
let api: Awaited<ReturnType<typeof spawnApi>>;
let worker: WorkerProcess;
/** The traced run's workflow, replayed by the second test. */
let tracedWorkflowId: string | undefined;

beforeAll(async () => {
  collector = await startCollector();
  provider = await startProvider(() => ({ status: 200, body: { status: 'approved' } }));
  // Its own task queue: the shared worker of the test services is not traced.
  const env = {
    TEMPORAL_TASK_QUEUE: `tracing-${randomUUID()}`,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    LOG_LEVEL: 'info',
    // The shared Schedules stay on the shared queues: moved here, they would stall once this worker stops.
    PLATFORM_SCHEDULES: 'false',
  };
  [api, worker] = await Promise.all([spawnApi(env), spawnWorker(env)]);
}, 180_000);

afterAll(async () => {
  if (api && api.child.exitCode === null) {
    api.child.kill('SIGTERM');
    await new Promise((resolve) => api.child.once('exit', resolve));
  }
  await worker?.stop();
  await provider?.close();
  await collector?.close();
}, 60_000);

/** Spans of one trace, grouped; waits for the batches of both processes to arrive. */
async function traceWhere(complete: (spans: ReceivedSpan[]) => boolean, timeoutMs = 30_000): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const traces = new Map<string, ReceivedSpan[]>();
    for (const span of collector.spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
    const found = [...traces.values()].find(complete);
    if (found) return found;
    if (Date.now() > deadline) {
      const names = collector.spans.map((span) => `${span.service} ${span.name}`);
      throw new Error(`no complete trace in ${timeoutMs} ms; spans: ${JSON.stringify([...new Set(names)])}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('tracing (OTLP/HTTP to a configured endpoint)', () => {
  it('follows an MCP tools/call from the API through Temporal to the activity, its queries and its outbound request', async () => {
    const operator = await mcpOperator(api.url);
    const settings = await http(`${api.url}/operator-data-api/settings`, { method: 'PUT', token: operator.key, body: { templateId: IGAMING_TEMPLATE_ID } });
    expect(settings.status).toBe(200);
    const tool = await createWorkflow(
      api.url,
      operator.accessToken,
      toolAutomation('Traced KYC', [
        { id: 'upsert', type: 'action.upsert_entity', params: { entityType: 'player', externalId: '{{ trigger.playerId }}', data: { country: 'MT' } } },
        {
          id: 'kyc',
          type: 'action.http_request',
          params: { method: 'POST', url: `${provider.url}/kyc?key=${SECRET}`, body: { playerId: '{{ trigger.playerId }}' } },
        },
      ]),
    );

    expect((await http(`${api.url}/openapi.json?token=${SECRET}`)).status).toBe(200);
    const response = await mcpPost(api.url, operator.key, rpc('tools/call', { name: tool.mcp_tool_name, arguments: { playerId: 'p-traced' } }));
    expect(response.status).toBe(200);
    expect(response.body.result.isError).toBe(false);
    expect(provider.requests).toHaveLength(1);

    const byApi = (span: ReceivedSpan) => span.service === 'operator-platform-api';
    const byWorker = (span: ReceivedSpan) => span.service === 'operator-platform-worker';
    const isPg = (span: ReceivedSpan) => span.attributes['db.system'] === 'postgresql';
    const isProviderCall = (span: ReceivedSpan) =>
      byWorker(span) && span.kind === CLIENT && Object.values(span.attributes).some((value) => String(value).includes(new URL(provider.url).host));
    const trace = await traceWhere(
      (spans) =>
        spans.some((span) => byApi(span) && span.kind === SERVER && span.attributes['http.target'] === '/mcp-server') &&
        spans.some((span) => byApi(span) && /^(StartWorkflow|UpdateWithStartWorkflow|StartWorkflowUpdate)/.test(span.name)) &&
        spans.some((span) => byWorker(span) && span.name.startsWith('RunWorkflow:')) &&
        spans.some((span) => byWorker(span) && span.name.startsWith('RunActivity:')) &&
        spans.some((span) => byWorker(span) && isPg(span)) &&
        spans.some(isProviderCall),
    );
    const traceId = trace[0]!.traceId;
    tracedWorkflowId = trace.map((span) => span.attributes.temporalWorkflowId).find((id): id is string => typeof id === 'string');
    expect(trace.every((span) => span.traceId === traceId)).toBe(true);

    expect(collector.spans.filter((span) => span.attributes['http.target'] === '/openapi.json')).toHaveLength(1);
    expect(JSON.stringify(collector.spans)).not.toContain(SECRET);
    const apiLog = api.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    expect(apiLog).toContainEqual(
      expect.objectContaining({ msg: 'request', path: '/mcp-server', trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) }),
    );
  }, 120_000);

  it('leaves the shared Schedules on the shared queues (PLATFORM_SCHEDULES=false)', async () => {
    const config = loadConfig();
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS! });
    try {
      const schedules = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }).schedule;
      for (const id of PLATFORM_SCHEDULE_IDS) {
        const described = await schedules
          .getHandle(id)
          .describe()
          .catch(() => undefined);
        const queue = described?.action.type === 'startWorkflow' ? described.action.taskQueue : 'none';
        expect([id, queue]).toEqual([id, expect.not.stringMatching(/^tracing-/)]);
      }
    } finally {
      await connection.close();
    }
  });

  it('replays the traced run, its trace headers included, through the workflow bundle without a nondeterminism error', async () => {
    expect(tracedWorkflowId).toBeDefined();
    const config = loadConfig();
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS! });
    const db = createDb(config.DATABASE_URL!, { poolMax: 1 });
    try {
      const history = await new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }).workflow.getHandle(tracedWorkflowId!).fetchHistory();
      const codec = new PlatformPayloadCodec(resolveKeyring(config), config.TEMPORAL_NAMESPACE, {
        store: postgresPayloadStore(db),
        maxBytes: config.TEMPORAL_PAYLOAD_MAX_BYTES,
      });
      const payloads = payloadsIn(history);
      const opened = await codec.decode(payloads);
      payloads.forEach((payload, index) => Object.assign(payload, opened[index]));
      expect(JSON.stringify(history.events)).toContain('_tracer-data');
      await Worker.runReplayHistory(
        {
          workflowBundle: { codePath: config.WORKFLOW_BUNDLE_PATH! },
          dataConverter: { failureConverterPath: FAILURE_CONVERTER_PATH },
          sinks: workflowTracingSinks(),
        },
        history,
        tracedWorkflowId,
      );
    } finally {
      await connection.close();
      await db.destroy();
    }
  });
});
