import { promisify } from 'node:util';
import { deflateRaw, inflateRaw, constants } from 'node:zlib';
import { METADATA_ENCODING_KEY, ValueError, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/** The encoding of a compressed payload: the whole original `Payload`, deflated. */
export const COMPRESSED_ENCODING = 'binary/zlib';
const COMPRESSED_BYTES = Buffer.from(COMPRESSED_ENCODING);
/** Smaller payloads are not worth the turn through zlib's thread pool. */
const MIN_BYTES = 32 * 1024;
/** Fast over small: JSON shrinks 5–10× at level 1, and a 3 MB answer takes milliseconds, off the main thread. */
const OPTIONS = { level: constants.Z_BEST_SPEED };
const ProtoPayload = temporal.api.common.v1.Payload;
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

const isCompressed = (payload: Payload) => {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && COMPRESSED_BYTES.equals(encoding);
};

/**
 * Deflates large payloads before they are sealed (`PlatformPayloadCodec` runs it first), on zlib's thread pool: a
 * large answer then costs a fraction of the encryption, the database write and the memory it would otherwise. Small
 * payloads pass unchanged; decoding passes through anything not compressed.
 */
export class CompressionCodec implements PayloadCodec {
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        if ((payload.data?.byteLength ?? 0) < MIN_BYTES) return payload;
        const compressed = await deflate(ProtoPayload.encode(payload).finish(), OPTIONS);
        return { metadata: { [METADATA_ENCODING_KEY]: COMPRESSED_BYTES }, data: compressed };
      }),
    );
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        if (!isCompressed(payload)) return payload;
        if (!payload.data) throw new ValueError('Compressed payload has no data');
        const decoded = ProtoPayload.decode(await inflate(payload.data));
        return { metadata: decoded.metadata, data: decoded.data };
      }),
    );
  }
}
