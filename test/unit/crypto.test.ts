import { randomBytes } from 'node:crypto';
import { Keyring, parseDataKey } from '../../core/crypto';

describe('Keyring (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const keyring = new Keyring(key);

  it('round-trips text and JSON, with a fresh IV each time', () => {
    const first = keyring.encrypt('Ada Lovelace', 'op:player:first_name');
    const second = keyring.encrypt('Ada Lovelace', 'op:player:first_name');
    expect(first).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('Ada Lovelace'); // the whole name: `Ada` alone occurs in base64 by chance
    expect(keyring.decrypt(first, 'op:player:first_name')).toBe('Ada Lovelace');
    expect(keyring.decryptJson(keyring.encryptJson({ n: 1 }, 'c'), 'c')).toEqual({ n: 1 });
    expect(Keyring.isCiphertext(first)).toBe(true);
    expect(Keyring.isCiphertext('Ada')).toBe(false);
  });

  it('refuses another context, altered data and unknown keys', () => {
    const sealed = keyring.encrypt('secret', 'operator-a:field');
    expect(() => keyring.decrypt(sealed, 'operator-b:field')).toThrow();
    const parts = sealed.split(':');
    parts[5] = Buffer.from('tampered').toString('base64url');
    expect(() => keyring.decrypt(parts.join(':'), 'operator-a:field')).toThrow();
    expect(() => new Keyring(randomBytes(32)).decrypt(sealed, 'operator-a:field')).toThrow(/unknown encryption key/);
  });

  it('rotates: a new current key still reads what an older key sealed', () => {
    const sealed = keyring.encrypt('old row', 'ctx');
    const rotated = new Keyring(randomBytes(32), [key]);
    expect(rotated.decrypt(sealed, 'ctx')).toBe('old row');
    expect(rotated.encrypt('new row', 'ctx').split(':')[2]).toBe(rotated.currentKeyId);
    expect(rotated.currentKeyId).not.toBe(keyring.currentKeyId);
  });

  it('parses keys as hex or base64 and rejects other lengths', () => {
    expect(parseDataKey(key.toString('hex'))).toEqual(key);
    expect(parseDataKey(key.toString('base64'))).toEqual(key);
    expect(() => parseDataKey('abcd')).toThrow();
  });
});
