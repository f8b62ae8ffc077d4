import { METADATA_ENCODING_KEY, ValueError, type Payload, type PayloadCodec, type SerializationContext } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { PayloadStore } from '../db/queries/temporalPayloads';

/** The encoding of a payload that stands for one stored in PostgreSQL. */
export const CLAIM_CHECK_ENCODING = 'binary/claim-check';
const CLAIM_CHECK_BYTES = Buffer.from(CLAIM_CHECK_ENCODING);
const ProtoPayload = temporal.api.common.v1.Payload;

/** Owners whose payloads are needed only briefly: a gateway lane's run lasts at most an hour (`temporal/gatewayCalls.ts`). */
const SHORT_LIVED: Array<{ prefix: string; ttlMs: number }> = [{ prefix: 'gateway-lane-', ttlMs: 2 * 60 * 60_000 }];
/** Decoded payloads kept in memory for replays and repeated reads, by total size. */
const CACHE_BYTES = 64 * 1024 * 1024;

function isClaim(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && CLAIM_CHECK_BYTES.equals(encoding);
}

function ownerOf(context: SerializationContext | undefined): string {
  return context?.workflowId ?? '';
}

/**
 * Keeps every payload the platform hands to Temporal under `thresholdBytes`, whatever it holds: a larger one (a
 * gateway answer in a run, a large node output, a run's input or result, a long failure message) is stored in
 * PostgreSQL (`temporal_payloads`) and the history carries its id — the claim-check pattern. It runs after the
 * keyring codec, so what it stores is already sealed. Temporal's own limits (2 MB per payload, 4 MB per gRPC
 * message, 50 MB per history) thus bound the number of payloads, never their size: no value a tenant sends can
 * terminate a workflow.
 *
 * The owner of a stored payload is the workflow of its serialization context (the SDK names it for workflow and
 * activity payloads alike), which decides how long it is kept (`purgeTemporalPayloads`).
 *
 * @example new ClaimCheckCodec(postgresPayloadStore(db), 128 * 1024) // after the KeyringPayloadCodec in payloadCodecs
 */
export class ClaimCheckCodec implements PayloadCodec {
  private readonly cache = new Map<string, Payload>();
  private cachedBytes = 0;

  constructor(
    private readonly store: PayloadStore,
    readonly thresholdBytes: number,
    private readonly onStored?: (bytes: number) => void,
  ) {}

  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => this.claim(payload, context)));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => (isClaim(payload) ? this.redeem(payload) : payload)));
  }

  private async claim(payload: Payload, context: SerializationContext | undefined): Promise<Payload> {
    const size = (payload.data?.byteLength ?? 0) + Object.values(payload.metadata ?? {}).reduce((sum, value) => sum + (value?.byteLength ?? 0), 0);
    if (size <= this.thresholdBytes) return payload;
    const bytes = ProtoPayload.encode(payload).finish();
    const owner = ownerOf(context);
    const ttlMs = SHORT_LIVED.find((rule) => owner.startsWith(rule.prefix))?.ttlMs;
    const id = await this.store.put(owner, bytes, ttlMs);
    this.onStored?.(bytes.byteLength);
    this.remember(id, payload);
    return { metadata: { [METADATA_ENCODING_KEY]: CLAIM_CHECK_BYTES }, data: Buffer.from(id) };
  }

  private async redeem(payload: Payload): Promise<Payload> {
    const id = Buffer.from(payload.data ?? []).toString('utf8');
    const cached = this.cache.get(id);
    if (cached) return cached;
    const bytes = await this.store.get(id);
    if (!bytes) throw new ValueError(`Stored payload ${id} is gone (its owner closed longer ago than payloads are kept)`);
    const decoded = ProtoPayload.decode(bytes);
    const restored = { metadata: decoded.metadata, data: decoded.data };
    this.remember(id, restored);
    return restored;
  }

  private remember(id: string, payload: Payload): void {
    const size = payload.data?.byteLength ?? 0;
    if (size > CACHE_BYTES / 4) return;
    this.cache.set(id, payload);
    this.cachedBytes += size;
    for (const [oldest, value] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= value.data?.byteLength ?? 0;
    }
  }
}
