import { API_KEY_PREFIX, constantTimeEqual, generateApiKey, isWellFormedApiKey, sha256Hex } from '../../core/apiKeyToken';

describe('generateApiKey', () => {
  it('has the live prefix and 64 lowercase hex characters', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('is unique per call', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey()));
    expect(keys.size).toBe(100);
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vector for "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches the digest of the empty string', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is a 64-character lowercase hex string and deterministic', () => {
    const key = generateApiKey();
    expect(sha256Hex(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256Hex(key)).toBe(sha256Hex(key));
    expect(sha256Hex(key)).not.toBe(sha256Hex(generateApiKey()));
  });
});

describe('isWellFormedApiKey', () => {
  const hex64 = 'a'.repeat(64);

  it('accepts the canonical form', () => {
    expect(isWellFormedApiKey(`svc_live_${hex64}`)).toBe(true);
    expect(isWellFormedApiKey(`svc_live_${'0123456789abcdef'.repeat(4)}`)).toBe(true);
  });

  it.each([
    ['wrong prefix', `svc_test_${hex64}`],
    ['no prefix', hex64],
    ['prefix only', 'svc_live_'],
    ['63 hex characters', `svc_live_${'a'.repeat(63)}`],
    ['65 hex characters', `svc_live_${'a'.repeat(65)}`],
    ['uppercase hex', `svc_live_${'A'.repeat(64)}`],
    ['non-hex character', `svc_live_${'a'.repeat(63)}g`],
    ['leading whitespace', ` svc_live_${hex64}`],
    ['trailing newline', `svc_live_${hex64}\n`],
    ['empty string', ''],
  ])('rejects %s', (_label, value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });
});

describe('constantTimeEqual', () => {
  it('is true for equal strings', () => {
    expect(constantTimeEqual('secret', 'secret')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    const digest = sha256Hex('abc');
    expect(constantTimeEqual(digest, `${digest}`)).toBe(true);
  });

  it('is false for different strings of the same length', () => {
    expect(constantTimeEqual('secret', 'secreT')).toBe(false);
    expect(constantTimeEqual(sha256Hex('a'), sha256Hex('b'))).toBe(false);
  });

  it('is false (and does not throw) for strings of different lengths', () => {
    expect(constantTimeEqual('secret', 'secret!')).toBe(false);
    expect(constantTimeEqual('', 'x')).toBe(false);
    expect(constantTimeEqual('abcdef', 'abc')).toBe(false);
  });

  it('compares by UTF-8 bytes', () => {
    expect(constantTimeEqual('é', 'é')).toBe(true);
    // Same UTF-16 length, different UTF-8 byte length.
    expect(constantTimeEqual('é', 'e')).toBe(false);
  });
});
