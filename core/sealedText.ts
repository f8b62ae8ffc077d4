import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRaw } from 'node:zlib';
import { Keyring } from './crypto';

const PREFIX = 'zsealed:v1';
/** Below this, text is sealed as it is: deflating it would not pay for the turn through zlib's thread pool. */
const MIN_BYTES = 32 * 1024;
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * Seals text with the keyring — large text deflated first, on zlib's thread pool, so a megabyte answer costs a
 * fraction of the encryption and storage. What {@link openText} opens, whichever form it took.
 *
 * @example const sealed = await sealText(keyring, JSON.stringify(answer), `gateway-call:${operatorId}:${callId}`)
 */
export async function sealText(keyring: Keyring, text: string, context: string): Promise<string> {
  if (text.length < MIN_BYTES) return keyring.encrypt(text, context);
  const { keyId, sealed } = keyring.encryptBytes(await deflate(Buffer.from(text, 'utf8'), { level: constants.Z_BEST_SPEED }), context);
  return `${PREFIX}:${keyId}:${sealed.toString('base64')}`;
}

/** True for what {@link sealText} produces, in either form. */
export function isSealedText(value: unknown): value is string {
  return Keyring.isCiphertext(value) || (typeof value === 'string' && value.startsWith(`${PREFIX}:`));
}

/**
 * Opens what {@link sealText} sealed; throws when the key is unknown, the context differs or the data was altered.
 * With `maxBytes`, text deflated to more than that is not inflated past it: a `RangeError` (`ERR_BUFFER_TOO_LARGE`)
 * instead, so a reader bounds what it holds whatever the ciphertext's small size promised (text not deflated is under
 * 32 KiB).
 */
export async function openText(keyring: Keyring, sealed: string, context: string, maxBytes?: number): Promise<string> {
  if (!sealed.startsWith(`${PREFIX}:`)) return keyring.decrypt(sealed, context);
  const [keyId, body] = sealed.slice(PREFIX.length + 1).split(':');
  if (!keyId || body === undefined) throw new Error('not a ciphertext');
  const deflated = keyring.decryptBytes(Buffer.from(body, 'base64'), keyId, context);
  return (await inflate(deflated, maxBytes === undefined ? {} : { maxOutputLength: maxBytes })).toString('utf8');
}

/** Whether `error` is {@link openText}'s refusal to inflate past its `maxBytes`. */
export const isTooLarge = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
