import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { Config } from '../core/config';

/** What both `Connection.connect` (clients) and `NativeConnection.connect` (workers) take to reach the server. */
export interface TemporalConnectionOptions {
  address: string;
  /** Absent: plain gRPC. `false` only with an API key whose TLS was switched off on purpose. */
  tls?: TLSConfig | false;
  apiKey?: string;
}

export type TemporalConnectionConfig = Pick<
  Config,
  'TEMPORAL_TLS' | 'TEMPORAL_TLS_CA_PATH' | 'TEMPORAL_TLS_CERT_PATH' | 'TEMPORAL_TLS_KEY_PATH' | 'TEMPORAL_TLS_SERVER_NAME' | 'TEMPORAL_API_KEY'
>;

function pem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

/**
 * The one reading of the Temporal connection settings, so the API's client and every worker connect alike: TLS is on
 * when asked for, when any TLS file is given, or with an API key (Temporal Cloud takes API keys over TLS only, and
 * the SDKs would turn it on too) unless `TEMPORAL_TLS=false` says otherwise. Files are read here, at connect time,
 * so a rotated certificate is picked up by the next process start. `core/config.ts` has already refused a
 * certificate without its key.
 *
 * @example await NativeConnection.connect(temporalConnectionOptions(config, '127.0.0.1:7233'))
 */
export function temporalConnectionOptions(config: TemporalConnectionConfig, address: string): TemporalConnectionOptions {
  const apiKey = config.TEMPORAL_API_KEY;
  const wantsTls =
    config.TEMPORAL_TLS ??
    [config.TEMPORAL_TLS_CA_PATH, config.TEMPORAL_TLS_CERT_PATH, config.TEMPORAL_TLS_SERVER_NAME, apiKey].some((value) => value !== undefined);
  const options: TemporalConnectionOptions = { address, ...(apiKey ? { apiKey } : {}) };
  if (!wantsTls) return apiKey ? { ...options, tls: false } : options;
  const tls: TLSConfig = {};
  if (config.TEMPORAL_TLS_CA_PATH) tls.serverRootCACertificate = pem('TEMPORAL_TLS_CA_PATH', config.TEMPORAL_TLS_CA_PATH);
  if (config.TEMPORAL_TLS_CERT_PATH && config.TEMPORAL_TLS_KEY_PATH)
    tls.clientCertPair = { crt: pem('TEMPORAL_TLS_CERT_PATH', config.TEMPORAL_TLS_CERT_PATH), key: pem('TEMPORAL_TLS_KEY_PATH', config.TEMPORAL_TLS_KEY_PATH) };
  if (config.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.TEMPORAL_TLS_SERVER_NAME;
  return { ...options, tls };
}

/** How the connection is secured, for start-up logs: never the key or file contents. */
export function describeTemporalConnection(options: TemporalConnectionOptions): { tls: boolean; mtls: boolean; withApiKey: boolean } {
  return { tls: Boolean(options.tls), mtls: Boolean(options.tls && options.tls.clientCertPair), withApiKey: options.apiKey !== undefined };
}
