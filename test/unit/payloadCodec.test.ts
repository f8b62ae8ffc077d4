import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { codecReadersOf } from '../../api/temporal-codec/access';
import { Keyring } from '../../core/crypto';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA, KeyringPayloadCodec } from '../../temporal/payloadCodec';

const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');
const value = { email: 'ada@example.com', apiKey: 'svc_live_abc' };

describe('KeyringPayloadCodec (Temporal payloads sealed with the platform keyring)', () => {
  const key = randomBytes(32);
  const codec = new KeyringPayloadCodec(new Keyring(key), 'default');
  const plain = defaultPayloadConverter.toPayload(value);

  it('round-trips a payload, metadata included, and leaves no plaintext in the sealed one', async () => {
    const [sealed] = (await codec.encode([plain])) as [Payload];
    expect(text(sealed.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed.metadata?.[KEY_ID_METADATA])).toBe(new Keyring(key).currentKeyId);
    expect(Object.keys(sealed.metadata ?? {}).sort()).toEqual(['encoding', KEY_ID_METADATA]);
    expect(Buffer.from(sealed.data!).includes('ada@example.com')).toBe(false);
    expect(Buffer.from(sealed.data!).includes('json/plain')).toBe(false);
    const [opened] = (await codec.decode([sealed])) as [Payload];
    expect(text(opened.metadata?.encoding)).toBe('json/plain');
    expect(defaultPayloadConverter.fromPayload(opened)).toEqual(value);
  });

  it('seals each payload with a fresh IV, and an empty list is an empty list', async () => {
    const [first, second] = (await codec.encode([plain, plain])) as [Payload, Payload];
    expect(Buffer.from(first.data!).equals(Buffer.from(second.data!))).toBe(false);
    expect(await codec.encode([])).toEqual([]);
  });

  it('rotates: a keyring with a new current key opens what the old key sealed, and seals with the new one', async () => {
    const [old] = await codec.encode([plain]);
    const rotated = new KeyringPayloadCodec(new Keyring(randomBytes(32), [key]), 'default');
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!)).toEqual(value);
    const [fresh] = await rotated.encode([plain]);
    expect(text(fresh!.metadata?.[KEY_ID_METADATA])).not.toBe(text(old!.metadata?.[KEY_ID_METADATA]));
    await expect(codec.decode([fresh!])).rejects.toThrow(/unknown encryption key/);
  });

  it('fails loudly with a wrong key, another namespace, altered bytes or a missing key id', async () => {
    const [sealed] = (await codec.encode([plain])) as [Payload];
    const sameIdOtherKey = { ...sealed };
    await expect(new KeyringPayloadCodec(new Keyring(randomBytes(32)), 'default').decode([sameIdOtherKey])).rejects.toThrow(/unknown encryption key/);
    await expect(new KeyringPayloadCodec(new Keyring(key), 'other-namespace').decode([sealed])).rejects.toThrow(/cannot be opened/);
    const altered = Buffer.from(sealed.data!);
    altered[altered.length - 1]! ^= 1;
    await expect(codec.decode([{ ...sealed, data: altered }])).rejects.toThrow(/cannot be opened/);
    await expect(codec.decode([{ ...sealed, data: altered.subarray(0, 10) }])).rejects.toThrow(/cannot be opened/);
    await expect(codec.decode([{ metadata: { encoding: sealed.metadata!.encoding! }, data: sealed.data! }])).rejects.toThrow(/no encryption key id/);
  });

  it('passes through payloads written before the codec (no encrypted encoding), so running workflows keep replaying', async () => {
    const legacy = defaultPayloadConverter.toPayload({ email: 'old@example.com' });
    const [decoded] = await codec.decode([legacy]);
    expect(decoded).toBe(legacy);
  });
});

describe('who may read Temporal payloads (TEMPORAL_CODEC_OPERATORS)', () => {
  it('a list of operator ids, nobody when unset, any Owner with "*" outside production only', () => {
    expect(codecReadersOf({ NODE_ENV: 'development', TEMPORAL_CODEC_OPERATORS: ' op_1, op_2 ,' })).toEqual(new Set(['op_1', 'op_2']));
    expect(codecReadersOf({ NODE_ENV: 'production', TEMPORAL_CODEC_OPERATORS: undefined })).toEqual(new Set());
    expect(codecReadersOf({ NODE_ENV: 'development', TEMPORAL_CODEC_OPERATORS: '*' })).toBe('*');
    expect(() => codecReadersOf({ NODE_ENV: 'production', TEMPORAL_CODEC_OPERATORS: '*' })).toThrow(/refused when NODE_ENV=production/);
  });
});
