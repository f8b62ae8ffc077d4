import { METADATA_ENCODING_KEY, ValueError, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Keyring } from '../core/crypto';

/** The encoding of a sealed payload, as in Temporal's encryption sample (`temporalio/samples-typescript/encryption`). */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata naming the keyring key that sealed a payload, so a rotated keyring still opens older history. */
export const KEY_ID_METADATA = 'encryption-key-id';

const ENCRYPTED_ENCODING_BYTES = Buffer.from(ENCRYPTED_ENCODING);
const ProtoPayload = temporal.api.common.v1.Payload;

function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && ENCRYPTED_ENCODING_BYTES.equals(encoding);
}

/**
 * Seals every payload the platform hands to Temporal (workflow and activity arguments and results, Update
 * and query arguments and results, memos, heartbeat details, failure details and — with the failure
 * converter's `encodeCommonAttributes` — failure messages and stack traces) with AES-256-GCM from the
 * platform keyring: the whole `Payload` (metadata and data) becomes the ciphertext, and the envelope names
 * only the encoding and the key id. The associated data binds a payload to its namespace, so history
 * copied into another namespace does not open.
 *
 * Decoding passes through payloads without the encrypted encoding: history written before the codec (a
 * gateway lane or schedule started by an older release) keeps replaying. A sealed payload whose key is not
 * in the keyring, or whose bytes were altered, throws: it never comes back as plaintext or as garbage.
 *
 * @example const codec = new KeyringPayloadCodec(keyring, 'default'); // dataConverter: { payloadCodecs: [codec] }
 */
export class KeyringPayloadCodec implements PayloadCodec {
  private readonly context: string;

  constructor(
    private readonly keyring: Keyring,
    readonly namespace: string,
  ) {
    this.context = `temporal-payload:${namespace}`;
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.seal(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.open(payload) : payload));
  }

  private seal(payload: Payload): Payload {
    const { keyId, sealed } = this.keyring.encryptBytes(ProtoPayload.encode(payload).finish(), this.context);
    return { metadata: { [METADATA_ENCODING_KEY]: ENCRYPTED_ENCODING_BYTES, [KEY_ID_METADATA]: Buffer.from(keyId) }, data: sealed };
  }

  private open(payload: Payload): Payload {
    const keyId = payload.metadata?.[KEY_ID_METADATA];
    if (!keyId) throw new ValueError('Encrypted payload names no encryption key id');
    if (!payload.data) throw new ValueError('Encrypted payload has no data');
    let plaintext: Buffer;
    try {
      plaintext = this.keyring.decryptBytes(payload.data, Buffer.from(keyId).toString('utf8'), this.context);
    } catch (error) {
      throw new ValueError(`Encrypted payload cannot be opened: ${(error as Error).message}`);
    }
    const decoded = ProtoPayload.decode(plaintext);
    return { metadata: decoded.metadata, data: decoded.data };
  }
}
