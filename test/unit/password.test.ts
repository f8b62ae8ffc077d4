import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../core/password';

// scrypt with N=2^15 costs ~100 ms per call: hash once and reuse.
describe('password hashing', () => {
  const password = 'correct horse battery staple';
  let encoded: string;

  beforeAll(async () => {
    encoded = await hashPassword(password);
  });

  it('encodes scheme and parameters, then a base64 salt and hash', () => {
    expect(encoded.startsWith('scrypt$32768$8$1$')).toBe(true);
    const parts = encoded.split('$');
    expect(parts).toHaveLength(6);
    expect(Buffer.from(parts[4] ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5] ?? '', 'base64')).toHaveLength(32);
  });

  it('uses a fresh salt per call', async () => {
    const again = await hashPassword(password);
    expect(again).not.toBe(encoded);
    expect(again.split('$')[4]).not.toBe(encoded.split('$')[4]);
  });

  it('verifies the right password', async () => {
    await expect(verifyPassword(password, encoded)).resolves.toBe(true);
  });

  it('rejects a wrong password', async () => {
    await expect(verifyPassword('correct horse battery stapl', encoded)).resolves.toBe(false);
  });

  it.each(['', 'bcrypt$x', 'scrypt$1$2', 'scrypt$32768$8$1$$', '$2b$10$abcdefghijklmnopqrstuv'])(
    'returns false for the malformed encoding %j',
    async (malformed) => {
      await expect(verifyPassword(password, malformed)).resolves.toBe(false);
    },
  );

  it('returns false when the stored hash has the wrong length', async () => {
    const parts = encoded.split('$');
    const truncated = [...parts.slice(0, 5), Buffer.alloc(16).toString('base64')].join('$');
    await expect(verifyPassword(password, truncated)).resolves.toBe(false);
  });

  // A corrupt stored hash must read as a wrong password, not reject (which would turn a login into a 500).
  it.each(['scrypt$abc$8$1$AAAA$AAAA', 'scrypt$3$8$1$AAAA$AAAA'])('returns false for the encoding with invalid parameters %j', async (malformed) => {
    await expect(verifyPassword(password, malformed)).resolves.toBe(false);
  });

  it('verifyAgainstDummy resolves false', async () => {
    await expect(verifyAgainstDummy(password)).resolves.toBe(false);
  });
});
