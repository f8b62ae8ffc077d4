import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { bundledScript } from './bundledScript';
import { rememberFields, type JsonReadRequest, type JsonReadResponse, type KnownField } from './jsonReadFields';
import { readJson, type JsonReading } from './jsonRead';

/**
 * Bodies from this size on are read by a body worker; smaller ones on the calling thread, where the round trip would
 * cost more than the reading (a 64 KiB body of dense numbers takes about 2 ms to check and parse).
 */
export const JSON_READ_WORKER_MIN_BYTES = 64 * 1024;
/** The heap a body worker may grow to: a 10 MiB body of small objects parses to about 150 MB. */
const WORKER_HEAP_MB = 512;

interface Job {
  bytes: Buffer;
  maxDepth: number;
  resolve(reading: JsonReading): void;
}

interface BodyWorker {
  worker: Worker;
  jobs: Map<number, Job>;
}

/** On the calling thread: what a worker would have answered. */
const readHere = (bytes: Buffer, maxDepth: number): JsonReading => readJson(bytes.toString('utf8'), maxDepth);

/**
 * Reads large JSON bodies (`readJson`: decoding, the nesting and number bounds, parsing, text PostgreSQL cannot store)
 * on worker threads, so the API's thread spends on a 10 MiB body only the parse that builds the value it hands on —
 * about a third of what reading it there cost, and none of a hostile body's cost (a 10 MiB text of dense numbers or
 * brackets took 0.3–0.8 s of bounds walk before its parse). A worker that fails has its bodies read on the calling
 * thread, and a new one starts for the next body. Workers start with the first large body and never hold the process.
 *
 * @example const reading = await jsonReadPool().read(rawBody, 64)
 */
export class JsonReadPool {
  private readonly workers: Array<BodyWorker | undefined>;
  private nextId = 0;

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => undefined);
  }

  async read(bytes: Buffer, maxDepth: number): Promise<JsonReading> {
    if (bytes.length < JSON_READ_WORKER_MIN_BYTES) return readHere(bytes, maxDepth);
    const id = (this.nextId += 1);
    const target = this.leastBusy();
    // One copy, handed over: the caller keeps its bytes (the raw body stays on the request).
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    const answered = new Promise<JsonReading>((resolve) => target.jobs.set(id, { bytes, maxDepth, resolve }));
    target.worker.postMessage({ id, bytes: copy, maxDepth } satisfies JsonReadRequest, [copy.buffer]);
    return answered;
  }

  /** Ends the workers; bodies being read are read on the calling thread, and a later large body starts a new worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((entry) => entry?.worker.terminate()));
    this.workers.fill(undefined);
  }

  /** How many workers are running (none once closed, until the next large body). */
  get running(): number {
    return this.workers.filter(Boolean).length;
  }

  private leastBusy(): BodyWorker {
    let best = 0;
    for (let index = 0; index < this.workers.length; index += 1) {
      const entry = this.workers[index];
      if (!entry) return this.start(index);
      if (entry.jobs.size < (this.workers[best]?.jobs.size ?? 0)) best = index;
    }
    return this.workers[best] ?? this.start(best);
  }

  private start(index: number): BodyWorker {
    const worker = new Worker(bundledScript(__filename, __dirname, 'jsonReadWorker'), {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    const entry: BodyWorker = { worker, jobs: new Map() };
    worker.on('message', (response: JsonReadResponse) => {
      const job = entry.jobs.get(response.id);
      if (!job) return;
      entry.jobs.delete(response.id);
      if (response.ok) job.resolve(parseChecked(response.text, response.fields, job));
      else job.resolve('problem' in response ? { ok: false, problem: response.problem } : { ok: false, invalid: response.invalid });
    });
    const fail = () => {
      if (this.workers[index] === entry) this.workers[index] = undefined;
      for (const job of entry.jobs.values()) job.resolve(readHere(job.bytes, job.maxDepth));
      entry.jobs.clear();
    };
    worker.once('error', fail);
    worker.once('exit', fail);
    this.workers[index] = entry;
    return entry;
  }
}

/**
 * The value of a text a worker found sound, its large fields' texts remembered (core/knownJson.ts): parsing it again
 * here cannot fail, but if it did the body is read here.
 */
function parseChecked(text: string, fields: KnownField[], job: Job): JsonReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return readHere(job.bytes, job.maxDepth);
  }
  rememberFields(value, fields);
  return { ok: true, value };
}

let shared: JsonReadPool | undefined;

/**
 * Ends the process's body workers, where the API closes its other resources (`processes/apiServer.ts`): they are
 * unref'd, so a forgotten close would not hold the process, but a test app's close must leave no thread behind.
 */
export async function closeJsonReadPool(): Promise<void> {
  await shared?.close();
}

/** The process's pool: one worker per core but the API's own, one at least and two at most. */
export function jsonReadPool(): JsonReadPool {
  shared ??= new JsonReadPool(Math.max(1, Math.min(2, os.availableParallelism() - 1)));
  return shared;
}
