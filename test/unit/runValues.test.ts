import { boundedMessage, CHUNK_CHARS, chunksOf, INLINE_VALUE_BYTES, PREVIEW_CHARS, splitNodes, type ApartValue } from '../../core/automations/runValues';
import type { NodeResult } from '../../core/automations/types';

const node = (id: string, output: unknown, extra: Partial<NodeResult> = {}): NodeResult => ({ id, status: 'completed', output, durationMs: 1, ...extra });

describe('splitNodes', () => {
  it('keeps small values inline and stores a value over 64 KiB apart, its marker holding size and preview; the run output follows its step', async () => {
    const big = { rows: 'é'.repeat(INLINE_VALUE_BYTES) };
    const apart: ApartValue[] = [];
    const { nodes, output } = await splitNodes([node('start', { a: 1 }), node('big', big, { input: { url: 'x' } })], big, async (value) => {
      apart.push(value);
    });
    expect(nodes[0]).toEqual(node('start', { a: 1 }));
    expect(nodes[1]!.input).toEqual({ url: 'x' });
    const json = JSON.stringify(big);
    expect(apart).toEqual([{ nodeId: 'big', part: 'output', json, bytes: Buffer.byteLength(json) }]);
    expect(nodes[1]!.output).toEqual({ _truncated: true, bytes: Buffer.byteLength(json), preview: json.slice(0, PREVIEW_CHARS) });
    expect(output).toBe(nodes[1]!.output);
  });

  it('moves values apart once the inline total would pass 1 MiB, and bounds every error message', async () => {
    const sixty = 'x'.repeat(60 * 1024);
    const many = Array.from({ length: 20 }, (_, index) => node(`n${index}`, sixty, { error: { code: 'E', message: 'm'.repeat(5_000) } }));
    const apart: string[] = [];
    const { nodes } = await splitNodes(many, null, async (value) => {
      apart.push(value.nodeId);
    });
    // 17 values of 60 KiB (and their quotes) fit in 1 MiB; the rest go apart.
    expect(apart).toEqual(['n17', 'n18', 'n19']);
    expect(nodes.every((each) => each.error!.message.length === 2_000 && each.error!.message.endsWith('…'))).toBe(true);
  });
});

describe('chunksOf and boundedMessage', () => {
  it('cuts JSON into chunks that never split a surrogate pair and join back exactly', () => {
    const json = JSON.stringify(`${'a'.repeat(CHUNK_CHARS - 1)}😀${'b'.repeat(10)}`);
    const chunks = chunksOf(json);
    expect(chunks.join('')).toBe(json);
    expect(chunks.every((chunk) => Buffer.from(chunk, 'utf8').toString('utf8') === chunk)).toBe(true);
    expect(chunksOf('')).toEqual(['']);
  });

  it('stores an error message as text, never an object', () => {
    expect(boundedMessage({ position: 3 })).toBe('{"position":3}');
    expect(boundedMessage('short')).toBe('short');
  });
});
