import path from 'node:path';
import Koa from 'koa';
import { serveKoa } from './serveKoa';
import { spawnReady } from './spawnReady';

/**
 * A bare Temporal shape behind the least an HTTP API does: a Koa handler that reads the JSON body, runs the shape and
 * answers its result as JSON — no routing, authentication, validation, rate limit or record. Beside the bare shape it
 * measures what the HTTP hop alone costs, so a benchmark can tell that hop from the platform's own work on top of it.
 *
 * @example const hop = await serveBareHop(() => bare.update(url, headers)); await client.send('POST', hop.url, headers, body)
 */
export function serveBareHop(shape: () => Promise<unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    ctx.body = { success: true, data: await shape() };
  });
  return serveKoa(app);
}

export interface BareHopProcessOptions {
  address: string;
  namespace: string;
  /** The bare worker's queue, and the hex data key it seals with. */
  taskQueue: string;
  dataEncryptionKey: string;
  /** `update` (the gateway's: an Update of one of `lanes` lanes) or `workflow` (`tools/call`'s: a workflow with one activity). */
  shape: 'update' | 'workflow';
  lanes: number;
  /** What each request's run GETs. */
  target: { url: string; headers: Record<string, string> };
}

/**
 * The bare hop with a bare shape, as a process of its own (tools/bench/lib/bareHopServer.ts) with a client (and lanes)
 * of its own: where the platform's API runs apart from the load (BENCH_PROCESSES=separate), the hop
 * that stands for it has to cross the same process boundary, or it would leave that crossing out of the comparison.
 */
export async function spawnBareHop(options: BareHopProcessOptions): Promise<{ url: string; pid: number | undefined; close(): Promise<void> }> {
  const child = await spawnReady(
    path.resolve(__dirname, 'bareHopServer.ts'),
    {
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: options.namespace,
      BARE_TASK_QUEUE: options.taskQueue,
      DATA_ENCRYPTION_KEY: options.dataEncryptionKey,
      BARE_LANES: String(options.lanes),
      HOP_SHAPE: options.shape,
      HOP_TARGET_URL: options.target.url,
      HOP_TARGET_HEADERS: JSON.stringify(options.target.headers),
    },
    /bare hop at (\S+)\n/,
    'the bare hop',
  );
  return { url: child.ready[1]!, pid: child.pid, close: child.stop };
}

/**
 * The bare hop where the platform's API runs: a process of its own beside a stack whose API and worker are processes
 * of their own (BENCH_PROCESSES=separate), running `run` on the bare worker's queue; else in this process, on `here`.
 */
export async function bareHopWhereTheApiIs(
  stack: { temporalAddress: string; namespace: string; workerProcess?: { dataEncryptionKey: string } },
  bare: { taskQueue: string },
  run: Pick<BareHopProcessOptions, 'shape' | 'lanes' | 'target'>,
  here: () => Promise<unknown>,
): Promise<{ url: string; pid: number | undefined; close(): Promise<void> }> {
  if (!stack.workerProcess) return { ...(await serveBareHop(here)), pid: undefined };
  const { temporalAddress: address, namespace } = stack;
  return spawnBareHop({ address, namespace, taskQueue: bare.taskQueue, dataEncryptionKey: stack.workerProcess.dataEncryptionKey, ...run });
}
