/**
 * A body worker of `core/jsonReadPool.ts`: decodes a body's bytes as UTF-8 and reads it with `readJson`, off the
 * API's thread. A text that passes goes back as text (a string crosses threads as one copy; a parsed value would be
 * cloned node by node, several times slower than parsing it again); any other reading goes back as it is.
 */
import { parentPort } from 'node:worker_threads';
import { readJson } from './jsonRead';
import type { JsonReadRequest, JsonReadResponse } from './jsonReadPool';

parentPort?.on('message', ({ id, bytes, maxDepth }: JsonReadRequest) => {
  const text = Buffer.from(bytes).toString('utf8');
  const reading = readJson(text, maxDepth);
  const response: JsonReadResponse = reading.ok ? { id, ok: true, text } : { id, ...reading };
  parentPort?.postMessage(response);
});
