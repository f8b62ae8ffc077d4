import type { DataConverter, Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
import type { Keyring } from '../core/crypto';
import type { PayloadStore } from '../db/queries/temporalPayloads';
import { ClaimCheckCodec } from './claimCheckCodec';
import { CompressionCodec } from './compressionCodec';
import { KeyringPayloadCodec } from './payloadCodec';

/** The module of `failureConverter`, for `bundleWorkflowCode({ failureConverterPath })` and the data converter. */
export const FAILURE_CONVERTER_PATH = require.resolve('./failureConverter');

/** Where payloads over `maxBytes` go instead of Temporal (`temporal/claimCheckCodec.ts`). */
export interface PayloadLimits {
  store: PayloadStore;
  maxBytes: number;
  /** Hears each payload stored, for the metrics. */
  onStored?: (bytes: number) => void;
}

/**
 * The platform's payload codec: large payloads deflated (`temporal/compressionCodec.ts`), every payload sealed with the
 * keyring (`temporal/payloadCodec.ts`), then, when `limits` are given, any sealed payload over `limits.maxBytes` stored
 * in PostgreSQL with a reference in its place (`temporal/claimCheckCodec.ts`). Decoding undoes each, in reverse.
 */
export class PlatformPayloadCodec implements PayloadCodec {
  private readonly compression = new CompressionCodec();
  private readonly sealing: KeyringPayloadCodec;
  private readonly claims: ClaimCheckCodec | undefined;

  constructor(keyring: Keyring, namespace: string, limits?: PayloadLimits) {
    this.sealing = new KeyringPayloadCodec(keyring, namespace);
    this.claims = limits && new ClaimCheckCodec(limits.store, limits.maxBytes, limits.onStored);
  }

  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    const sealed = await this.sealing.encode(await this.compression.encode(payloads));
    return this.claims ? this.claims.encode(sealed, context) : sealed;
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return this.compression.decode(await this.sealing.decode(this.claims ? await this.claims.decode(payloads) : payloads));
  }
}

/**
 * The one data converter of every Temporal client and worker the platform makes: payloads sealed with the platform
 * keyring for `namespace` and kept under Temporal's size limits (with `limits`; every process with a database gives
 * them), failure messages and stack traces sealed with them.
 *
 * @example new Client({ connection, namespace, dataConverter: platformDataConverter(keyring, namespace, { store, maxBytes }) })
 */
export function platformDataConverter(keyring: Keyring, namespace: string, limits?: PayloadLimits): DataConverter {
  return { payloadCodecs: [new PlatformPayloadCodec(keyring, namespace, limits)], failureConverterPath: FAILURE_CONVERTER_PATH };
}
