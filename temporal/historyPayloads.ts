import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/**
 * Every `Payload` in a history or any part of one (inputs, results, memos, failure attributes, Update outcomes…), found
 * by shape, in document order: what a codec must open to read it, or what a tool rewrites in place.
 *
 * @example await codec.decode(payloadsIn(history))
 */
export function payloadsIn(node: unknown, found: Payload[] = []): Payload[] {
  if (node === null || typeof node !== 'object' || node instanceof Uint8Array) return found;
  const candidate = node as { metadata?: unknown; data?: unknown };
  if (
    candidate.metadata &&
    typeof candidate.metadata === 'object' &&
    (candidate.data === undefined || candidate.data === null || candidate.data instanceof Uint8Array)
  ) {
    found.push(candidate as Payload);
  }
  for (const child of Array.isArray(node) ? node : Object.values(node)) payloadsIn(child, found);
  return found;
}

const { History } = temporal.api.history.v1;
const JSON_FORM = { longs: String, enums: String, bytes: String } as const;

/**
 * A history as plain JSON (protobuf's own object form: 64-bit numbers as strings, bytes as base64, enums by name), and
 * back. Not `historyToJSON` of `@temporalio/common`: its protobufjs copy differs from `@temporalio/proto`'s here, and
 * protobufjs checks types by instance.
 */
export function historyJson(history: temporal.api.history.v1.IHistory): { events: unknown[] } {
  return History.toObject(History.fromObject(history), JSON_FORM) as { events: unknown[] };
}

/** {@link historyJson} read back into the object `Worker.runReplayHistories` takes. */
export function historyFromJson(json: unknown): temporal.api.history.v1.IHistory {
  return History.fromObject(json as Record<string, unknown>);
}
