import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte AES key and its id: the first 8 hex characters of its SHA-256, so ids need no naming. */
interface DataKey {
  id: string;
  key: Buffer;
}

function toDataKey(key: Buffer): DataKey {
  if (key.length !== 32) throw new Error('an encryption key must be 32 bytes');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

/** Parses a key given as 64 hex characters or as base64 of 32 bytes. */
export function parseDataKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/**
 * AES-256-GCM encryption of personal data and credentials. Every ciphertext names the id of the key
 * that sealed it, so the current key can change while older keys stay available for reading; and it
 * is bound to a context string (associated data, e.g. `operatorId:entity:first_name`) so a ciphertext
 * copied to another tenant or field fails to open.
 *
 * @example
 * const keyring = new Keyring(parseDataKey(process.env.KEY!), []);
 * const sealed = keyring.encrypt('Ada', 'op_1:player:first_name'); // 'enc:v1:3f2a9c1b:…'
 * keyring.decrypt(sealed, 'op_1:player:first_name');              // 'Ada'
 */
export class Keyring {
  private readonly current: DataKey;
  private readonly byId = new Map<string, DataKey>();

  constructor(currentKey: Buffer, previousKeys: Buffer[] = []) {
    this.current = toDataKey(currentKey);
    for (const key of [currentKey, ...previousKeys]) {
      const dataKey = toDataKey(key);
      this.byId.set(dataKey.id, dataKey);
    }
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [PREFIX, this.current.id, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join(':');
  }

  /** Opens a ciphertext; throws when the key is unknown, the context differs or the data was altered. */
  decrypt(sealed: string, context: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) throw new Error('not a ciphertext');
    const [, , keyId, iv, tag, body] = parts as [string, string, string, string, string, string];
    const dataKey = this.byId.get(keyId);
    if (!dataKey) throw new Error(`unknown encryption key ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', dataKey.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * Seals bytes into `iv ‖ tag ‖ ciphertext` and names the key that sealed them, for binary envelopes that
   * carry the key id beside the data (Temporal payloads: `temporal/payloadCodec.ts`).
   */
  encryptBytes(plaintext: Uint8Array, context: string): { keyId: string; sealed: Buffer } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { keyId: this.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  /** Opens what `encryptBytes` sealed; throws when the key is unknown, the context differs or the data was altered. */
  decryptBytes(sealed: Uint8Array, keyId: string, context: string): Buffer {
    const dataKey = this.byId.get(keyId);
    if (!dataKey) throw new Error(`unknown encryption key ${keyId}`);
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('not a ciphertext');
    const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    const decipher = createDecipheriv('aes-256-gcm', dataKey.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }

  /** Seals any JSON value (PII fields may be strings, numbers or objects). */
  encryptJson(value: unknown, context: string): string {
    return this.encrypt(JSON.stringify(value), context);
  }

  decryptJson(sealed: string, context: string): unknown {
    return JSON.parse(this.decrypt(sealed, context));
  }

  static isCiphertext(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(`${PREFIX}:`);
  }
}
