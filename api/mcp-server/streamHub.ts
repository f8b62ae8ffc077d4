import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { decodeBusEnvelope, encodeBusEnvelope, messageFrame, streamSlotLockKey, TOOLS_LIST_CHANGED, type ProgressNotification } from '../../core/mcpEvents';
import type { Db } from '../../db/knex';
import { DedicatedConnection, PROGRESS_CHANNEL, TOOLS_CHANGED_CHANNEL } from './dedicatedConnection';

/** Where a stream's frames go: the open `text/event-stream` response. */
export interface StreamSink {
  write(frame: string): void;
  /** Writes its own `notifications/tools/list_changed` (a `subscriptions/listen` stream names its subscription in it). */
  listChanged?: () => void;
}

const keyOf = (operatorId: string, sessionId: string) => `${operatorId}\u0000${sessionId}`;

/** Adds `sink` to the set under `key`; returns what removes it again (and the set, once empty). */
function addTo(map: Map<string, Set<StreamSink>>, key: string, sink: StreamSink): () => void {
  const set = map.get(key) ?? new Set<StreamSink>();
  set.add(sink);
  map.set(key, set);
  return () => {
    set.delete(sink);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

/**
 * The event streams of one API instance: the spec's channel (`GET /mcp-server/events?session=`, spec 4.6) and the
 * MCP endpoint's own `GET /mcp-server` stream. It knows which streams are open for which operator and session,
 * enforces the per-operator limit over both kinds (advisory-lock slots, so it holds across instances), and
 * delivers progress frames to the session's channel streams — locally, and with cross-instance affinity through
 * PostgreSQL NOTIFY so a POST handled by any instance reaches the instance holding the stream — and
 * `notifications/tools/list_changed` to every stream of the operator, from the `mcp_tools_changed` NOTIFY of any
 * change of its tools. Streams are keyed by operator *and* session id, so a session id chosen by one operator
 * never receives another operator's frames.
 */
export class McpStreamHub {
  private readonly instanceId = randomUUID();
  private readonly sinks = new Map<string, Set<StreamSink>>();
  private readonly operatorSinks = new Map<string, Set<StreamSink>>();
  private readonly slotsHeld = new Map<string, Set<number>>();
  private readonly connection: DedicatedConnection;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: { db: Db; connectionString: string; affinity: boolean; maxStreamsPerOperator: number; logger: Logger }) {
    this.connection = new DedicatedConnection({
      connectionString: options.connectionString,
      channels: options.affinity ? [TOOLS_CHANGED_CHANNEL, PROGRESS_CHANNEL] : [TOOLS_CHANGED_CHANNEL],
      logger: options.logger,
      onNotification: (channel, payload) => this.onNotification(channel, payload),
      onReconnected: () => this.serial(() => this.relock()),
    });
  }

  /**
   * Registers a stream for (operator, session) if the operator has a free slot; `sessionId` null is an MCP
   * endpoint stream, which gets only list changes. Resolves with the function that unregisters it, or `null` when
   * the operator already has `maxStreamsPerOperator` streams on any instance.
   *
   * @example const release = await hub.open(operatorId, sessionId, { write: (frame) => stream.write(frame) })
   */
  open(operatorId: string, sessionId: string | null, sink: StreamSink): Promise<(() => void) | null> {
    return this.serial(async () => {
      await this.connection.connect();
      const held = this.slotsHeld.get(operatorId) ?? new Set<number>();
      let slot: number | undefined;
      for (let candidate = 0; candidate < this.options.maxStreamsPerOperator && slot === undefined; candidate += 1) {
        if (!held.has(candidate) && (await this.connection.tryLock(streamSlotLockKey(operatorId, candidate)))) slot = candidate;
      }
      if (slot === undefined) {
        if (this.streamCount() === 0) await this.connection.end();
        return null;
      }
      held.add(slot);
      this.slotsHeld.set(operatorId, held);
      const removeFromSession = sessionId === null ? () => undefined : addTo(this.sinks, keyOf(operatorId, sessionId), sink);
      const removeFromOperator = addTo(this.operatorSinks, operatorId, sink);
      let released = false;
      const taken = slot;
      return () => {
        if (released) return;
        released = true;
        removeFromSession();
        removeFromOperator();
        void this.serial(() => this.freeSlot(operatorId, taken)).catch((error: Error) =>
          this.options.logger.warn({ err: { name: error.name, message: error.message } }, 'MCP stream slot release failed'),
        );
      };
    });
  }

  /**
   * Sends a progress notification to the (operator, session) streams: those of this instance directly, those of
   * other instances through NOTIFY when cross-instance affinity is on (without it they may miss the frame).
   */
  async publish(operatorId: string, sessionId: string, message: ProgressNotification): Promise<void> {
    this.deliver(operatorId, sessionId, message);
    if (!this.options.affinity) return;
    const payload = encodeBusEnvelope({ origin: this.instanceId, operatorId, sessionId, message });
    await this.options.db.raw('SELECT pg_notify(?, ?)', [PROGRESS_CHANNEL, payload]);
  }

  private deliver(operatorId: string, sessionId: string, message: ProgressNotification): void {
    const set = this.sinks.get(keyOf(operatorId, sessionId));
    if (!set) return;
    const frame = messageFrame(message);
    for (const sink of set) sink.write(frame);
  }

  private onNotification(channel: string, payload: string | undefined): void {
    if (channel === TOOLS_CHANGED_CHANNEL) {
      if (payload) this.announceListChanged(payload);
      return;
    }
    const envelope = decodeBusEnvelope(payload);
    if (!envelope || envelope.origin === this.instanceId) return;
    this.deliver(envelope.operatorId, envelope.sessionId, envelope.message);
  }

  private announceListChanged(operatorId: string): void {
    const frame = messageFrame(TOOLS_LIST_CHANGED);
    for (const sink of this.operatorSinks.get(operatorId) ?? []) {
      if (sink.listChanged) sink.listChanged();
      else sink.write(frame);
    }
  }

  private streamCount(): number {
    let count = 0;
    for (const slots of this.slotsHeld.values()) count += slots.size;
    return count;
  }

  private async freeSlot(operatorId: string, slot: number): Promise<void> {
    const held = this.slotsHeld.get(operatorId);
    held?.delete(slot);
    if (held && held.size === 0) this.slotsHeld.delete(operatorId);
    if (this.streamCount() === 0) {
      await this.connection.end();
      return;
    }
    await this.connection.unlock(streamSlotLockKey(operatorId, slot));
  }

  /** After a reconnect the old connection's locks are gone: take this instance's slots again. */
  private async relock(): Promise<void> {
    for (const [operatorId, slots] of this.slotsHeld) {
      for (const slot of slots) {
        if (!(await this.connection.tryLock(streamSlotLockKey(operatorId, slot)))) {
          this.options.logger.warn({ operatorId, slot }, 'MCP stream slot taken by another instance during a reconnect');
        }
      }
    }
  }

  /** Runs stream bookkeeping one step at a time, so connect, lock and end never interleave. */
  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
