/**
 * A body worker of `core/jsonReadPool.ts`: decodes a body's bytes as UTF-8 and reads it with `readJson`, off the
 * API's thread. A text that passes goes back as text (a string crosses threads as one copy; a parsed value would be
 * cloned node by node, several times slower than parsing it again), with the JSON text of each large object or array
 * at the top level of an object body, as the API's thread would write it (`knownFieldsOf`); any other reading goes
 * back as it is.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { readJson } from './jsonRead';
import { knownFieldsOf, type JsonReadRequest, type JsonReadResponse } from './jsonReadFields';

/**
 * The nice value of this thread alone (on Linux a nice value is per thread, and 0 names the calling one): when the
 * cores are contended the API's thread, which answers everyone, goes first, and a large body's reading waits instead.
 */
const BODY_WORKER_NICE = 10;
try {
  setPriority(0, BODY_WORKER_NICE);
} catch {
  // Where a thread's priority cannot be lowered the worker runs at the process's.
}

parentPort?.on('message', ({ id, bytes, maxDepth }: JsonReadRequest) => {
  const text = Buffer.from(bytes).toString('utf8');
  const reading = readJson(text, maxDepth);
  if (!reading.ok) {
    parentPort?.postMessage({ id, ...reading } satisfies JsonReadResponse);
    return;
  }
  const fields = knownFieldsOf(reading.value);
  parentPort?.postMessage(
    { id, ok: true, text, fields } satisfies JsonReadResponse,
    fields.map((field) => field.jsonb.buffer as ArrayBuffer),
  );
});
