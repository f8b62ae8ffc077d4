import type { NodeResult } from './types';

/**
 * How a run record stays small whatever its steps produced (docs/workflows.md "Large step values"). A step's input or
 * output whose JSON is larger than {@link INLINE_VALUE_BYTES}, or that would take the record's inline values past
 * {@link RECORD_INLINE_BYTES}, is stored apart (`automation_run_values`, in sealed chunks of {@link CHUNK_CHARS}) and
 * the record holds a {@link TruncatedValue} in its place: its size and the first {@link PREVIEW_CHARS} of its JSON.
 * `GET /workflows-api/runs/:runId/steps/:nodeId/output` (and `/input`) streams the whole value, chunk by chunk.
 */
export const INLINE_VALUE_BYTES = 64 * 1024;
/** The most a record keeps inline across its steps' values: a record of 100 steps of 60 KiB each stays at 1 MiB. */
export const RECORD_INLINE_BYTES = 1024 * 1024;
/** The preview a truncated value keeps: enough to recognise it in the dashboard. */
export const PREVIEW_CHARS = 2 * 1024;
/** One stored chunk of a large value's JSON: what one row holds, and the most the streaming endpoint has in hand. */
export const CHUNK_CHARS = 256 * 1024;
/** A step's error message as stored: JSONata and suppliers quote the data they failed on. */
export const MAX_ERROR_MESSAGE_CHARS = 2_000;
/**
 * The most a run record's sealed part may open to in one read. Records written since values are stored apart stay
 * far below it (1 MiB inline, 100 steps' previews and messages); a record written before, larger than this, reads
 * without its values instead of filling the API's heap.
 */
export const RECORD_OPEN_MAX_BYTES = 8 * 1024 * 1024;

/** What a record holds instead of a step value stored apart. `bytes` is the UTF-8 size of the whole value's JSON. */
export interface TruncatedValue {
  _truncated: true;
  bytes: number;
  preview: string;
}

export type ValuePart = 'input' | 'output';

export function isTruncatedValue(value: unknown): value is TruncatedValue {
  return typeof value === 'object' && value !== null && (value as { _truncated?: unknown })._truncated === true;
}

export function truncatedValue(json: string, bytes = Buffer.byteLength(json, 'utf8')): TruncatedValue {
  return { _truncated: true, bytes, preview: safeSlice(json, 0, PREVIEW_CHARS) };
}

/** `text.slice(start, end)` moved back one place when `end` would split a surrogate pair (a chunk must be valid UTF-16). */
function safeEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function safeSlice(text: string, start: number, end: number): string {
  return text.slice(start, safeEnd(text, end));
}

/** A large value's JSON cut into chunks of at most {@link CHUNK_CHARS}, none splitting a character. */
export function chunksOf(json: string): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < json.length;) {
    const end = safeEnd(json, start + CHUNK_CHARS);
    chunks.push(json.slice(start, end));
    start = end;
  }
  return chunks.length > 0 ? chunks : [''];
}

/** A step error's message as stored: text (never an object), at most {@link MAX_ERROR_MESSAGE_CHARS}. */
export function boundedMessage(message: unknown): string {
  const text = typeof message === 'string' ? message : (JSON.stringify(message ?? '') ?? '');
  return text.length > MAX_ERROR_MESSAGE_CHARS ? `${safeSlice(text, 0, MAX_ERROR_MESSAGE_CHARS - 1)}…` : text;
}

/** A large value to store apart, and where it belongs. */
export interface ApartValue {
  nodeId: string;
  part: ValuePart;
  json: string;
  bytes: number;
}

/** Reads a value in: references to values kept out of Temporal resolved (`temporal/payloadRefs.ts`); as it is by default. */
export type ValueReader = (value: unknown) => Promise<unknown>;

const asItIs: ValueReader = (value) => Promise.resolve(value);

/**
 * Decides which of a finished run's step values stay inline and which are stored apart: in step order, each value is
 * read in (`read`: one at a time, so a caller given references holds one large value at once), and is inline when its
 * JSON is at most {@link INLINE_VALUE_BYTES} characters and the inline total stays within {@link RECORD_INLINE_BYTES};
 * `onApart` receives every other one (awaited, so a caller storing them holds one at a time) and the node gets its
 * {@link TruncatedValue}. Error messages are bounded as well. The run's own output is one of its steps' outputs (the
 * same JSON, or the same reference): when that step's was stored apart, the run's output is the same marker.
 */
export async function splitNodes(
  nodes: NodeResult[],
  runOutput: unknown,
  onApart: (value: ApartValue) => Promise<void>,
  read: ValueReader = asItIs,
): Promise<{ nodes: NodeResult[]; output: unknown }> {
  let inline = 0;
  let output: unknown;
  let matched = false;
  const outputKey = runOutput === undefined || runOutput === null ? undefined : JSON.stringify(runOutput);
  const split: NodeResult[] = [];
  for (const node of nodes) {
    const next: NodeResult = { ...node };
    for (const part of ['input', 'output'] as const) {
      const raw = node[part];
      if (raw === undefined || isTruncatedValue(raw)) continue;
      const value = await read(raw);
      const json = JSON.stringify(value) ?? 'null';
      const isRunOutput = part === 'output' && outputKey !== undefined && (raw === value ? json : JSON.stringify(raw)) === outputKey;
      if (json.length <= INLINE_VALUE_BYTES && inline + json.length <= RECORD_INLINE_BYTES) {
        inline += json.length;
        next[part] = value;
      } else {
        const bytes = Buffer.byteLength(json, 'utf8');
        await onApart({ nodeId: node.id, part, json, bytes });
        next[part] = truncatedValue(json, bytes);
      }
      if (isRunOutput) [output, matched] = [next[part], true];
    }
    if (node.error) next.error = { ...node.error, message: boundedMessage(node.error.message) };
    split.push(next);
  }
  if (!matched && outputKey !== undefined) {
    const value = await read(runOutput);
    const json = JSON.stringify(value) ?? 'null';
    output = json.length > INLINE_VALUE_BYTES ? truncatedValue(json) : value;
  }
  return { nodes: split, output: matched || outputKey !== undefined ? output : runOutput };
}
