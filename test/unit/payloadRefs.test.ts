import { randomBytes, randomUUID } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Keyring } from '../../core/crypto';
import type { PayloadStore } from '../../db/queries/temporalPayloads';
import { PayloadRefs } from '../../temporal/payloadRefs';

function memoryStore() {
  const rows = new Map<string, { owner: string; bytes: Uint8Array }>();
  const store: PayloadStore = {
    async put(owner, sealed) {
      const id = randomUUID();
      rows.set(id, { owner, bytes: sealed });
      return id;
    },
    async get(id, owner) {
      const row = rows.get(id);
      return row && (owner === undefined || row.owner === owner) ? row.bytes : undefined;
    },
  };
  return { store, rows };
}

const refsWith = (limit: number) => {
  const memory = memoryStore();
  return { ...memory, refs: new PayloadRefs(memory.store, new Keyring(randomBytes(32)), 'default', limit) };
};
const owner = 'automation-manual-run_1';

describe('PayloadRefs (large parts of activity results kept out of workflows)', () => {
  it('leaves a result within the limit alone, and stores the largest parts of a larger one, keeping its shape and small fields', async () => {
    const { refs, rows } = refsWith(4 * 1024);
    const small = { kind: 'sent', result: { ok: true, status: 200, data: { playerId: 'p-1' } } };
    expect(await refs.externalize(small, owner)).toBe(small);

    const documents = Array.from({ length: 400 }, (_, index) => ({ doc: index, note: 'x'.repeat(40) }));
    const big = { kind: 'sent', result: { ok: true, status: 200, data: { playerId: 'p-1', status: 'approved', documents, scan: 'y'.repeat(8_000) } } };
    const shrunk = (await refs.externalize(big, owner)) as any;
    expect(shrunk.kind).toBe('sent');
    expect(shrunk.result).toMatchObject({ ok: true, status: 200, data: { playerId: 'p-1', status: 'approved' } });
    expect(shrunk.result.data.documents).toEqual({ $payloadRef: expect.any(String) });
    expect(shrunk.result.data.scan).toEqual({ $payloadRef: expect.any(String) });
    expect(JSON.stringify(shrunk).length).toBeLessThan(4 * 1024);
    expect([...rows.values()].every((row) => row.owner === owner)).toBe(true);

    expect(await refs.resolve(shrunk, owner)).toEqual(big);
    const fresh = new PayloadRefs(refs['store' as keyof PayloadRefs] as unknown as PayloadStore, new Keyring(randomBytes(32)), 'default', 4 * 1024);
    await expect(fresh.resolve(shrunk, owner)).rejects.toThrow();
  });

  it("resolves references at any depth for their owner only: another run's, an unknown or a malformed id fail, naming no value", async () => {
    const { refs } = refsWith(1024);
    const stored = (await refs.externalize({ a: 'z'.repeat(5_000) }, owner)) as { a: { $payloadRef: string } };
    expect(await refs.resolve({ deep: [{ x: stored.a }] }, owner)).toEqual({ deep: [{ x: 'z'.repeat(5_000) }] });

    const other = refsWith(1024).refs;
    await expect(other.resolve(stored.a, owner)).rejects.toMatchObject({ type: 'PAYLOAD_REF_UNKNOWN', nonRetryable: true });
    const { refs: scoped, store } = refsWith(1024);
    const id = await store.put(owner, new Uint8Array([1]));
    await expect(scoped.resolve({ $payloadRef: id }, 'automation-manual-run_2')).rejects.toMatchObject({ type: 'PAYLOAD_REF_UNKNOWN' });
    await expect(scoped.resolve({ $payloadRef: "1' OR 1=1" }, owner)).rejects.toMatchObject({ type: 'PAYLOAD_REF_UNKNOWN' });
    expect(await scoped.resolve({ $payloadRef: 5, other: 1 }, owner)).toEqual({ $payloadRef: 5, other: 1 });
  });

  it("writes the payload Temporal's JSON converter writes, so a value stored either way reads back, in any script", async () => {
    const { refs, rows, store } = refsWith(1024);
    const codecs = refs as unknown as Record<'compression' | 'sealing', { encode(p: Payload[]): Promise<Payload[]>; decode(p: Payload[]): Promise<Payload[]> }>;
    const note = 'Zoë 🎰 ∑ \ud800 '.repeat(400);
    const stored = (await refs.externalize({ note }, owner)) as { note: { $payloadRef: string } };
    const bytes = rows.get(stored.note.$payloadRef)!.bytes;
    const [opened] = await codecs.compression.decode(await codecs.sealing.decode([temporal.api.common.v1.Payload.decode(bytes) as Payload]));
    expect(defaultPayloadConverter.fromPayload(opened!)).toBe(note);

    const [sealed] = await codecs.sealing.encode(await codecs.compression.encode([defaultPayloadConverter.toPayload(note)]));
    const id = await store.put(owner, temporal.api.common.v1.Payload.encode(sealed!).finish());
    expect(await refs.resolve({ $payloadRef: id }, owner)).toBe(note);
  });
});
