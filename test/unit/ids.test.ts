import { randomUUID } from 'node:crypto';
import { isUuid, prefixedId, secretToken } from '../../core/ids';

describe('isUuid', () => {
  it.each([
    '123e4567-e89b-12d3-a456-426614174000', // v1
    '550e8400-e29b-41d4-a716-446655440000', // v4
    '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', // v7
    '3F2504E0-4F89-41D3-9A0C-0305E82C3301', // uppercase
  ])('accepts %s', (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it('accepts a freshly generated crypto.randomUUID()', () => {
    expect(isUuid(randomUUID())).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a number', 123],
    ['null', null],
    ['undefined', undefined],
    ['an object', { id: '550e8400-e29b-41d4-a716-446655440000' }],
    ['an empty string', ''],
    ['version nibble 0', '550e8400-e29b-01d4-a716-446655440000'],
    ['version nibble 9', '550e8400-e29b-91d4-a716-446655440000'],
    ['version nibble f', '550e8400-e29b-f1d4-a716-446655440000'],
    ['variant nibble c', '550e8400-e29b-41d4-c716-446655440000'],
    ['no hyphens', '550e8400e29b41d4a716446655440000'],
    ['too short', '550e8400-e29b-41d4-a716-44665544000'],
    ['too long', '550e8400-e29b-41d4-a716-4466554400000'],
    ['non-hex character', '550e8400-e29b-41d4-a716-44665544000g'],
    ['braces', '{550e8400-e29b-41d4-a716-446655440000}'],
    ['surrounding whitespace', ' 550e8400-e29b-41d4-a716-446655440000 '],
    ['a prefixed id', 'job_550e8400e29b41d4a716446655440000'],
  ])('rejects %s', (_label, value) => {
    expect(isUuid(value)).toBe(false);
  });
});

describe('prefixedId', () => {
  it('is the prefix, an underscore and 32 lowercase hex characters', () => {
    expect(prefixedId('job')).toMatch(/^job_[0-9a-f]{32}$/);
    expect(prefixedId('ent')).toMatch(/^ent_[0-9a-f]{32}$/);
  });

  it('is unique per call', () => {
    const ids = new Set(Array.from({ length: 100 }, () => prefixedId('job')));
    expect(ids.size).toBe(100);
  });
});

describe('secretToken', () => {
  it('is the prefix, an underscore and 43 base64url characters (256 bits)', () => {
    const token = secretToken('rt');
    expect(token.startsWith('rt_')).toBe(true);
    expect(token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(token).toHaveLength('rt_'.length + 43);
    expect(Buffer.from(token.slice('rt_'.length), 'base64url')).toHaveLength(32);
  });

  it('is unique per call', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => secretToken('inv')));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
  });
});
