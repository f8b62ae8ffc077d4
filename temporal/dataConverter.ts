import type { DataConverter } from '@temporalio/common';
import type { Keyring } from '../core/crypto';
import { KeyringPayloadCodec } from './payloadCodec';

/** The module of `failureConverter`, for `bundleWorkflowCode({ failureConverterPath })` and the data converter. */
export const FAILURE_CONVERTER_PATH = require.resolve('./failureConverter');

/**
 * The one data converter of every Temporal client and worker the platform makes: payloads sealed with the
 * platform keyring for `namespace`, failure messages and stack traces sealed with them.
 *
 * @example new Client({ connection, namespace, dataConverter: platformDataConverter(keyring, namespace) })
 */
export function platformDataConverter(keyring: Keyring, namespace: string): DataConverter {
  return { payloadCodecs: [new KeyringPayloadCodec(keyring, namespace)], failureConverterPath: FAILURE_CONVERTER_PATH };
}
