import { randomUUID } from 'node:crypto';
import { METADATA_ENCODING_KEY, ValueError, type Payload } from '@temporalio/common';
import type { PayloadStore } from '../../db/queries/temporalPayloads';
import { ClaimCheckCodec, CLAIM_CHECK_ENCODING } from '../../temporal/claimCheckCodec';

/** An in-memory store that records what it was given. */
function memoryStore() {
  const rows = new Map<string, { owner: string; bytes: Uint8Array; ttlMs: number | undefined }>();
  const store: PayloadStore = {
    async put(owner, sealed, ttlMs) {
      const id = randomUUID();
      rows.set(id, { owner, bytes: sealed, ttlMs });
      return id;
    },
    async get(id) {
      return rows.get(id)?.bytes;
    },
  };
  return { store, rows };
}

const payload = (size: number): Payload => ({ metadata: { [METADATA_ENCODING_KEY]: Buffer.from('binary/encrypted') }, data: Buffer.alloc(size, 7) });
const encodingOf = (value: Payload) => Buffer.from(value.metadata?.[METADATA_ENCODING_KEY] ?? []).toString();

describe('ClaimCheckCodec (payloads over the limit rest in PostgreSQL)', () => {
  it('passes payloads up to the limit through and stores larger ones, each under its owner workflow', async () => {
    const { store, rows } = memoryStore();
    const codec = new ClaimCheckCodec(store, 1024);
    const [small, large] = await codec.encode([payload(900), payload(5000)], {
      type: 'activity',
      namespace: 'default',
      workflowId: 'automation-manual-run_1',
      isLocal: true,
    });
    expect(encodingOf(small!)).toBe('binary/encrypted');
    expect(encodingOf(large!)).toBe(CLAIM_CHECK_ENCODING);
    expect(large!.data!.byteLength).toBeLessThan(64);
    expect([...rows.values()].map((row) => [row.owner, row.ttlMs])).toEqual([['automation-manual-run_1', undefined]]);

    const fresh = new ClaimCheckCodec(store, 1024);
    const [again, restored] = await fresh.decode([small!, large!]);
    expect(again).toBe(small);
    expect(Buffer.from(restored!.data!)).toEqual(Buffer.alloc(5000, 7));
    expect(encodingOf(restored!)).toBe('binary/encrypted');
  });

  it("keeps a gateway lane's payloads two hours only, and an owner-less one without expiry", async () => {
    const { store, rows } = memoryStore();
    const codec = new ClaimCheckCodec(store, 100);
    await codec.encode([payload(500)], { type: 'workflow', namespace: 'default', workflowId: 'gateway-lane-op-abcd-0' });
    await codec.encode([payload(500)]);
    expect([...rows.values()].map((row) => [row.owner, row.ttlMs])).toEqual([
      ['gateway-lane-op-abcd-0', 2 * 60 * 60_000],
      ['', undefined],
    ]);
  });

  it('a reference whose payload is gone fails loudly, never as an empty value', async () => {
    const codec = new ClaimCheckCodec(memoryStore().store, 100);
    const reference = { metadata: { [METADATA_ENCODING_KEY]: Buffer.from(CLAIM_CHECK_ENCODING) }, data: Buffer.from(randomUUID()) };
    await expect(codec.decode([reference])).rejects.toThrow(ValueError);
  });
});
