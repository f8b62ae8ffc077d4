import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { platformTopology } from '../../tools/stack/cluster';
import { startProcessStack, type ApiProcess, type ProcessStack } from '../../tools/stack/processStack';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { createDb, type Db } from '../../db/knex';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { rpc, setMcp, toolAutomation } from '../helpers/mcp';
import { startProvider, type ProviderAuth } from '../helpers/providerServer';
import { callGateway, connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';

/**
 * Run by test/integration/security-plant.test.ts as its own process (embedded PostgreSQL is an ES module jest
 * cannot load). Prints one JSON line with what it found; the test asserts on it.
 *
 * Issue 17's "Done means" (and issue 14's log search): values planted through the public API must not rest in
 * plaintext in PostgreSQL's heap files or WAL segments, Temporal's SQLite database or any log line, and after the entity's erasure
 * no API reads its personal data back. Its own throw-away stack: API and worker as processes logging at debug level
 * to files, PostgreSQL's logging collector on, Temporal's dev server logging at debug, file-backed.
 */

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesUnder(full) : stat.isFile() ? [full] : [];
  });
}

/** The files among `files` whose raw bytes contain `value` (UTF-8). */
function filesHolding(files: string[], value: string): string[] {
  const needle = Buffer.from(value, 'utf8');
  return files.filter((file) => readFileSync(file).includes(needle));
}

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new Error(`plant: ${what}`);
}

async function main(): Promise<void> {
  const serviceLog: string[] = [];
  const tag = randomUUID().slice(0, 8);
  const planted = {
    entityEmail: `planted-entity-${tag}@example.com`,
    runEmail: `planted-run-${tag}@example.com`,
    credential: `planted-credential-${tag}-${randomUUID()}`,
    apiKey: '',
  };
  const control = `planted-control-${tag}`;
  const earlyControl = `planted-early-control-${tag}`;
  const stack: ProcessStack = await startProcessStack(
    { LOG_LEVEL: 'debug', GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' },
    (line) => {
      serviceLog.push(line);
      if (process.env.PLANT_VERBOSE) process.stderr.write(`${line}\n`);
    },
    { temporalLogLevel: 'debug' },
  );
  const db: Db = createDb(stack.databaseUrl, { poolMax: 2 });
  const echo = await startProvider((request) => ({ status: 200, body: { echoed: request.body ? JSON.parse(request.body) : null } }));
  const auth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: planted.credential };
  const kyc = await startKycSupplier(auth);
  try {
    await db.destroy();
    const api: ApiProcess = await stack.spawnApi();
    await stack.spawnWorker();
    const pg: Db = createDb(stack.databaseUrl, { poolMax: 2 });
    // Values deliberately left in plaintext, before anything is planted and after: prove the file search below finds
    // what is there, in the WAL from the start of the run to its end.
    await pg.raw('CREATE TABLE plant_control (v text)');
    await pg.raw('INSERT INTO plant_control VALUES (?)', [earlyControl]);
    const url = api.url;
    const operator = await signupOperator(url, 'Plant Casino');
    const apiKey = await createApiKey(url, operator);
    planted.apiKey = apiKey.key;
    const key = planted.apiKey;
    await setMcp(url, operator, apiKey.id, { mcp_enabled: true, mcp_workflow_allowlist: null });
    const data = (p: string, options: Parameters<typeof http>[1] = {}) => http(`${url}/operator-data-api${p}`, { ...options, token: key });
    const wf = (p: string, options: Parameters<typeof http>[1] = {}) => http(`${url}/workflows-api${p}`, { ...options, token: key });
    expectThat((await data('/settings', { method: 'PUT', body: { templateId: IGAMING_TEMPLATE_ID } })).status === 200, 'status 200');

    const externalId = `pz-${tag}`;
    expectThat(
      (
        await data('/entities', {
          method: 'POST',
          headers: { 'Idempotency-Key': `plant-${tag}` },
          body: { externalId, entityType: 'player', data: { email: planted.entityEmail, country: 'MT' } },
        })
      ).status === 201,
      'status 201',
    );

    const { connectionId } = await connectSupplier(url, key, {
      openapi: kycDocument(kyc.url, { kind: 'apiKeyHeader', name: 'X-Api-Key', value: planted.credential }),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: credentialsFor({ kind: 'apiKeyHeader', name: 'X-Api-Key', value: planted.credential }),
    });
    const gateway = await callGateway(url, key, { connectionId, operation: 'kyc.status', params: { playerId: externalId } });
    expectThat(gateway.status === 200, 'status 200');

    const echoNode = (body: Record<string, unknown>) => ({
      id: 'echo',
      type: 'action.http_request',
      params: { method: 'POST', url: `${echo.url}/echo`, body },
    });
    const create = async (body: Record<string, unknown>) => (await wf('/workflows', { method: 'POST', body })).body.data;
    const byHand = await create({
      name: 'Echo by hand',
      nodes: [{ id: 'start', type: 'trigger.manual', params: {} }, echoNode({ contact: '{{ trigger.email }}' })],
      edges: [{ from: 'start', to: 'echo' }],
    });
    const onEvent = await create({
      name: 'Echo deposits',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
        echoNode({ player: '{{ trigger.entity.externalId }}' }),
        { id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: '{{ trigger.entity.externalId }}' } } },
      ],
      edges: [
        { from: 'start', to: 'echo' },
        { from: 'echo', to: 'kyc' },
      ],
    });

    const tool = await create(toolAutomation('Contact player', [echoNode({ contact: '{{ trigger.email }}' })]));
    const callTool = () =>
      http(`${url}/mcp-server`, {
        token: key,
        body: rpc('tools/call', { name: tool.mcp_tool_name, arguments: { playerId: externalId, email: planted.entityEmail } }),
      });
    const mcpBefore = await callTool();
    expectThat(mcpBefore.body.result?.isError === false && mcpBefore.text.includes(planted.entityEmail), 'an MCP tools/call about the entity completes');
    const aboutEntity = await wf(`/workflows/${byHand.id}/test`, { method: 'POST', body: { id: 'pz', externalId, email: planted.entityEmail } });
    const unrelated = await wf(`/workflows/${byHand.id}/test`, { method: 'POST', body: { id: 'pz', email: planted.runEmail } });
    expectThat(aboutEntity.body.data.status === 'completed' && unrelated.body.data.status === 'completed', 'the test runs complete');
    expectThat(JSON.stringify(unrelated.body.data.nodes).includes(planted.runEmail), 'a node echoes the run payload');
    expectThat(
      (
        await data(`/entities/${externalId}/events`, {
          method: 'POST',
          body: { eventType: 'transaction', data: { type: 'deposit', amount: 50, currency: 'EUR', status: 'completed' } },
        })
      ).status === 201,
      'status 201',
    );
    const eventRun = await until(async () => {
      const list = await wf(`/workflows/${onEvent.id}/runs`);
      const run = list.body.data?.find((candidate: any) => candidate.status !== 'running');
      return run;
    }, 'the event-triggered run');
    expectThat(eventRun.status === 'completed', "status 'completed'");
    const batch = await data('/batch/entities', {
      method: 'POST',
      body: [
        { externalId, entityType: 'player', data: { email: planted.entityEmail, country: 'MT' } },
        { externalId: `other-${tag}`, entityType: 'player', data: { email: planted.runEmail } },
      ],
    });
    const job = await until(async () => {
      const read = await data(`/batch/jobs/${batch.body.data.jobId}`);
      return ['completed', 'failed'].includes(read.body.data.status) ? read.body.data : undefined;
    }, 'the batch job');
    expectThat(job.status === 'completed', "status 'completed'");

    // The control: the unrelated run's email is still readable through the API (it is not the entity's).
    expectThat(JSON.stringify((await wf(`/runs/${unrelated.body.data.id}`)).body.data).includes(planted.runEmail), 'GET one run opens its sealed parts');

    expectThat((await data(`/entities/${externalId}`, { method: 'DELETE' })).status === 200, 'status 200');

    const mcpAfter = await callTool();
    expectThat(mcpAfter.body.result?.isError === false, 'an MCP tools/call naming the erased entity completes');
    const reads = await Promise.all([
      mcpAfter,
      wf(`/runs/${mcpBefore.body.result._meta.execution_id}`),
      wf(`/runs/${mcpAfter.body.result._meta.execution_id}`),
      wf(`/workflows/${tool.id}/runs`),
      data(`/entities/${externalId}`),
      data(`/entities/${externalId}/events`),
      data(`/entities/${externalId}/state`),
      data(`/batch/jobs/${job.id}`),
      wf(`/workflows/${byHand.id}/runs`),
      wf(`/workflows/${onEvent.id}/runs`),
      wf(`/runs/${aboutEntity.body.data.id}`),
      wf(`/runs/${eventRun.id}`),
      http(`${url}/analytics-api/analytics/players/${externalId}`, { token: key }),
      http(`${url}/analytics-api/analytics/players?search=${encodeURIComponent(planted.entityEmail)}`, { token: key }),
      http(`${url}/mcp-server`, { token: key, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    ]);
    const apiLeaks = reads.filter((read) => read.text.includes(planted.entityEmail)).map((read) => read.text.slice(0, 200));
    expectThat(
      JSON.stringify((await wf(`/runs/${aboutEntity.body.data.id}`)).body.data.input) === '{"_redacted":true}',
      'the run about the entity is redacted',
    );

    await pg.raw('INSERT INTO plant_control VALUES (?)', [control]);
    await pg.raw('VACUUM FULL');
    await pg.raw('CHECKPOINT');

    const pgData = path.join(stack.dataDir, 'postgres');
    const heap = filesUnder(path.join(pgData, 'base'));
    // The dev server keeps its store in SQLite files; on the cluster topology Temporal's databases live in the same
    // PostgreSQL, so its store is among the heap files already searched.
    const temporalFiles =
      platformTopology() === 'cluster'
        ? heap
        : readdirSync(stack.dataDir)
            .filter((name) => name.startsWith('temporal.sqlite'))
            .map((name) => path.join(stack.dataDir, name));
    const serviceLogFile = path.join(stack.dataDir, 'services.log');
    writeFileSync(serviceLogFile, `${serviceLog.join('\n')}\n`);
    const logs = [
      ...readdirSync(stack.dataDir)
        .filter((name) => name.endsWith('.log'))
        .map((name) => path.join(stack.dataDir, name)),
      ...filesUnder(path.join(pgData, 'log')),
    ];
    const wal = filesUnder(path.join(pgData, 'pg_wal'));

    const controls = {
      heapFiles: heap.length,
      temporalFiles: temporalFiles.length,
      walFiles: wal.length,
      plaintextFoundInHeap: filesHolding(heap, control).length > 0,
      plaintextFoundInWal: filesHolding(wal, control).length > 0 && filesHolding(wal, earlyControl).length > 0,
      workflowTypeFoundInTemporal: filesHolding(temporalFiles, 'automationRunV2Workflow').length > 0,
      workerReadyFoundInLogs: filesHolding(logs, 'worker ready').length > 0,
    };

    const found: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(planted)) {
      const where = [
        ...new Set([...filesHolding(heap, value), ...filesHolding(wal, value), ...filesHolding(temporalFiles, value), ...filesHolding(logs, value)]),
      ];
      if (where.length > 0) found[name] = where.map((file) => path.relative(stack.dataDir, file));
    }
    const walBytes = wal.reduce((sum, file) => sum + statSync(file).size, 0);
    process.stderr.write(
      `plant: ${heap.length} heap files, ${wal.length} WAL segments (${Math.round(walBytes / 2 ** 20)} MiB), ${temporalFiles.length} Temporal files, ${logs.length} log files (${logs.reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length, 0)} lines)\n`,
    );
    await pg.destroy();
    process.stdout.write(`${JSON.stringify({ found, apiLeaks, controls })}\n`);
  } finally {
    await Promise.all([echo.close(), kyc.close()]);
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
