import { createHash } from 'node:crypto';
import type { JsonRpcId } from './mcpJsonRpc';

/**
 * Frames and messages of the MCP event-stream channel (spec 4.6, 6.3): `text/event-stream` frames,
 * `notifications/progress` messages and the PostgreSQL NOTIFY payload that carries them between instances.
 */

export interface ProgressParams {
  progressToken: JsonRpcId;
  progress: number;
  total?: number;
  message?: string;
}

export interface ProgressNotification {
  jsonrpc: '2.0';
  method: 'notifications/progress';
  params: ProgressParams;
}

/** Sent on every open stream of an operator when a tool of its list appears, changes or goes (MCP `tools.listChanged`). */
export const TOOLS_LIST_CHANGED = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as const;

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; messages are clipped well below it. */
const MAX_MESSAGE_CHARS = 500;

export function progressNotification(params: ProgressParams): ProgressNotification {
  const message = params.message === undefined ? undefined : params.message.slice(0, MAX_MESSAGE_CHARS);
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { ...params, ...(message !== undefined ? { message } : {}) } };
}

/** A comment frame (`: ping`): keeps proxies from idling the connection out; clients ignore it. */
export function commentFrame(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** A JSON-RPC message as an SSE `message` event; JSON has no raw newlines, so one `data:` line suffices. */
export function messageFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** What travels on the NOTIFY channel: the origin instance (to skip its own echo), the stream's key and the message. */
export interface BusEnvelope {
  origin: string;
  operatorId: string;
  sessionId: string;
  message: ProgressNotification;
}

export function encodeBusEnvelope(envelope: BusEnvelope): string {
  return JSON.stringify(envelope);
}

/** Parses a NOTIFY payload; anything not shaped like an envelope is `null` (never thrown: it comes off the wire). */
export function decodeBusEnvelope(payload: string | undefined): BusEnvelope | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as Partial<BusEnvelope>;
    if (typeof value.origin !== 'string' || typeof value.operatorId !== 'string' || typeof value.sessionId !== 'string') return null;
    if (typeof value.message !== 'object' || value.message === null || value.message.method !== 'notifications/progress') return null;
    return value as BusEnvelope;
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL advisory-lock key (a signed bigint, as text) of one of an operator's stream slots. Holding
 * slot locks on a connection makes the per-operator stream limit hold across every API instance, and a
 * crashed instance's slots free themselves when its connection drops.
 *
 * @example streamSlotLockKey('6f1c…', 0) // '-4093815407513170390'
 */
export function streamSlotLockKey(operatorId: string, slot: number): string {
  const digest = createHash('sha256').update(`mcp-event-stream:${operatorId}:${slot}`).digest();
  return digest.readBigInt64BE(0).toString();
}
