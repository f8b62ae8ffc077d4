import { randomBytes } from 'node:crypto';
import { chunksCovering, openBatchItems, sealBatchItems } from '../../core/batchSeal';
import { Keyring } from '../../core/crypto';

describe('batch items sealed chunk by chunk', () => {
  const keyring = new Keyring(randomBytes(32));
  const items = Array.from({ length: 7 }, (_, i) => ({ externalId: `p-${i}`, data: { email: `p${i}@example.com` } }));

  it('one ciphertext per chunk, none holding an item in the clear', () => {
    const sealed = sealBatchItems(keyring, 'op_a', 'job_1', items, 3);
    expect(sealed.chunkSize).toBe(3);
    expect(sealed.chunks).toHaveLength(3);
    expect(sealed.chunks.every((chunk) => Keyring.isCiphertext(chunk))).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('example.com');
  });

  it('opens the items of a range, across chunks and past the end', () => {
    const sealed = sealBatchItems(keyring, 'op_a', 'job_1', items, 3);
    const read = (start: number, size: number) => {
      const indexes = chunksCovering(3, start, size);
      return openBatchItems(
        keyring,
        'op_a',
        'job_1',
        3,
        indexes,
        indexes.map((i) => sealed.chunks[i] ?? null),
        start,
        size,
      );
    };
    expect(chunksCovering(3, 3, 3)).toEqual([1]);
    expect(read(3, 3)).toEqual(items.slice(3, 6));
    expect(read(6, 3)).toEqual(items.slice(6));
    expect(read(2, 4)).toEqual(items.slice(2, 6));
    expect(read(9, 3)).toEqual([]);
  });

  it('a chunk moved to another job, operator or position does not open', () => {
    const sealed = sealBatchItems(keyring, 'op_a', 'job_1', items, 3);
    const chunk = [sealed.chunks[0]!];
    expect(() => openBatchItems(keyring, 'op_a', 'job_2', 3, [0], chunk, 0, 3)).toThrow();
    expect(() => openBatchItems(keyring, 'op_b', 'job_1', 3, [0], chunk, 0, 3)).toThrow();
    expect(() => openBatchItems(keyring, 'op_a', 'job_1', 3, [1], chunk, 3, 3)).toThrow();
  });
});
