import type { Payload } from '@temporalio/common';
import { z } from 'zod';

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64');

/** A payload in proto3 JSON, as the Temporal UI and CLI send it: every bytes field base64. */
export const JsonPayload = z.object({
  metadata: z.record(z.string(), base64).nullish(),
  data: base64.nullish(),
});
export type JsonPayload = z.infer<typeof JsonPayload>;

/** The codec-server protocol's body, both ways: `{ "payloads": [...] }`. */
export const CodecBody = z.object({ payloads: z.array(JsonPayload).max(10_000) });

export function fromJson(payload: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')])),
    data: Buffer.from(payload.data ?? '', 'base64'),
  };
}

export function toJson(payload: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value ?? []).toString('base64')])),
    data: Buffer.from(payload.data ?? []).toString('base64'),
  };
}
