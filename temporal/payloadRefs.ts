import { ApplicationFailure, defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Keyring } from '../core/crypto';
import { nextTurnAfter } from '../core/eventLoop';
import { isPayloadRef as isRef, PAYLOAD_REF_KEY as REF_KEY } from '../core/payloadRef';
import type { PayloadStore } from '../db/queries/temporalPayloads';
import { CompressionCodec } from './compressionCodec';
import { KeyringPayloadCodec } from './payloadCodec';

/** Parts smaller than this are not worth a reference (and a write) of their own. */
const SMALLEST_REF = 2 * 1024;
/** Resolved values kept in memory by total estimated size: a run's next activity usually needs the same ones. */
const CACHE_BYTES = 64 * 1024 * 1024;

const ProtoPayload = temporal.api.common.v1.Payload;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Json = unknown;

const JSON_PLAIN = 'json/plain';

/**
 * `value` as the default converter's JSON payload (`json/plain`, UTF-8), with Node's own UTF-8 coder: the converter's
 * is written in JavaScript so that it runs in the workflow isolate, and on a 3 MB value it held the thread for tens of
 * milliseconds, beside every other tenant's requests. Anything JSON does not write goes to the converter.
 */
function toJsonPayload(value: Json): Payload {
  const text = value instanceof Uint8Array ? undefined : JSON.stringify(value);
  if (text === undefined) return defaultPayloadConverter.toPayload(value);
  return { metadata: { encoding: Buffer.from(JSON_PLAIN) }, data: Buffer.from(text, 'utf8') };
}

/** The value of a payload {@link toJsonPayload} (or the default converter) wrote. */
function fromJsonPayload(payload: Payload): Json {
  const encoding = payload.metadata?.encoding;
  if (!encoding || !payload.data || Buffer.from(encoding).toString('utf8') !== JSON_PLAIN) return defaultPayloadConverter.fromPayload(payload);
  return JSON.parse(Buffer.from(payload.data.buffer, payload.data.byteOffset, payload.data.byteLength).toString('utf8'));
}

const isContainer = (value: Json): value is Record<string, Json> | Json[] => typeof value === 'object' && value !== null;

/** Estimated JSON size of every container and of the whole value, in one pass (strings count their length). */
function sizesOf(value: Json, sizes: Map<object, number>): number {
  if (typeof value === 'string') return value.length + 2;
  if (!isContainer(value)) return value === undefined ? 0 : String(value).length;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  let total = 2;
  if (Array.isArray(value)) for (const item of value) total += sizesOf(item, sizes) + 1;
  else for (const [key, item] of Object.entries(value)) total += key.length + 4 + sizesOf(item, sizes);
  sizes.set(value, total);
  return total;
}

/**
 * Keeps what workflows hold small: an activity's result larger than the limit has its largest parts stored in
 * PostgreSQL (`temporal_payloads`, sealed like any payload, owned by the workflow) and replaced by reference objects
 * before the result reaches the workflow; an activity's arguments have every reference replaced by its value before
 * the activity runs. Workflow code thus handles a 3 MB gateway answer as a few hundred bytes — its status, its small
 * fields and a reference — and no large value crosses into the workflow isolate, its history or a replay. The payload
 * codec's claim check (`claimCheckCodec.ts`) stays the guarantee for anything else.
 *
 * A reference resolves only for the workflow that owns it, so a reference a tenant writes into its own data cannot
 * read another run's values.
 *
 * @example const refs = new PayloadRefs(store, keyring, 'default', 128 * 1024); const small = await refs.externalize(result, workflowId)
 */
export class PayloadRefs {
  private readonly compression = new CompressionCodec();
  private readonly sealing: KeyringPayloadCodec;
  private readonly cache = new Map<string, { value: Json; bytes: number }>();
  private cachedBytes = 0;

  constructor(
    private readonly store: PayloadStore,
    keyring: Keyring,
    namespace: string,
    readonly limitBytes: number,
  ) {
    this.sealing = new KeyringPayloadCodec(keyring, namespace);
  }

  /** `value` with its largest parts stored and referenced until it fits the limit; unchanged when it already does. */
  async externalize(value: Json, owner: string): Promise<Json> {
    const sizes = new Map<object, number>();
    const total = sizesOf(value, sizes);
    if (total <= this.limitBytes) return value;
    await nextTurnAfter(total);
    return this.shrink(value, owner, sizes, this.limitBytes, true);
  }

  /**
   * `value` with every reference of `owner`'s replaced by the stored value (at any depth); `tally.bytes` grows by the
   * stored size of each value brought in.
   */
  async resolve(value: Json, owner: string, tally: { bytes: number } = { bytes: 0 }): Promise<Json> {
    if (isRef(value)) return this.load(value[REF_KEY], owner, tally);
    if (!isContainer(value)) return value;
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.resolve(item, owner, tally)));
    const resolved: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(resolved, key, { value: await this.resolve(item, owner, tally), enumerable: true, writable: true, configurable: true });
    }
    return resolved;
  }

  /**
   * Replaces the largest children first (recursing into containers that are themselves too large) until `value` fits;
   * a part made of many small ones (a long list) is stored whole. The root keeps its shape: workflow code reads its fields.
   */
  private async shrink(value: Json, owner: string, sizes: Map<object, number>, limit: number, root = false): Promise<Json> {
    const size = (item: Json) => (isContainer(item) ? sizes.get(item)! : sizesOf(item, sizes));
    if (!isContainer(value)) return this.save(value, owner);
    const copy: Record<string, Json> | Json[] = Array.isArray(value) ? [...value] : { ...value };
    let total = size(value);
    const children = Object.entries(value).sort((a, b) => size(b[1]) - size(a[1]));
    for (const [key, child] of children) {
      if (total <= limit || size(child) < SMALLEST_REF) break;
      const replaced = size(child) > limit && isContainer(child) ? await this.shrink(child, owner, sizes, limit) : await this.save(child, owner);
      total -= size(child) - sizesOf(replaced, sizes);
      (copy as Record<string, Json>)[key] = replaced;
    }
    return total > limit && !root ? this.save(value, owner) : copy;
  }

  private async save(value: Json, owner: string): Promise<Json> {
    const payload = toJsonPayload(value);
    await nextTurnAfter(payload.data?.byteLength ?? 0);
    const [sealed] = await this.sealing.encode(await this.compression.encode([payload]));
    const id = await this.store.put(owner, ProtoPayload.encode(sealed!).finish());
    this.remember(id, value, payload.data?.byteLength ?? 0);
    return { [REF_KEY]: id };
  }

  private async load(id: string, owner: string, tally: { bytes: number }): Promise<Json> {
    const cached = this.cache.get(id);
    if (cached) {
      tally.bytes += cached.bytes;
      return cached.value;
    }
    const bytes = UUID.test(id) ? await this.store.get(id, owner) : undefined;
    if (!bytes) throw ApplicationFailure.create({ type: 'PAYLOAD_REF_UNKNOWN', message: `Stored value ${id} is gone, or not this run's`, nonRetryable: true });
    const [opened] = await this.compression.decode(await this.sealing.decode([ProtoPayload.decode(bytes) as Payload]));
    await nextTurnAfter(opened!.data?.byteLength ?? 0);
    const value = fromJsonPayload(opened!);
    const size = opened!.data?.byteLength ?? bytes.byteLength;
    tally.bytes += size;
    this.remember(id, value, size);
    return value;
  }

  private remember(id: string, value: Json, bytes: number): void {
    if (bytes > CACHE_BYTES / 4) return;
    this.cache.set(id, { value, bytes });
    this.cachedBytes += bytes;
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.bytes;
    }
  }
}
