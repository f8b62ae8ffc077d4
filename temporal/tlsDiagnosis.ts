import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TemporalConnectionOptions } from './connectionOptions';

/** How long the probe waits for the handshake, and then for a late alert (TLS 1.3 refuses a missing client certificate after it). */
const HANDSHAKE_MS = 3000;
const ALERT_MS = 300;

/**
 * Why a TLS handshake with the Temporal frontend fails, in Node's words (`UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to
 * verify the first certificate`, `…ALERT_CERTIFICATE_REQUIRED`), or undefined when it succeeds or TLS is off. The
 * gRPC client only says "Failed to connect before the deadline"; this one handshake, with the same CA, client pair
 * and server name, says which setting is wrong.
 */
export function tlsHandshakeFailure(options: TemporalConnectionOptions): Promise<string | undefined> {
  const { tls: settings, address } = options;
  if (!settings) return Promise.resolve(undefined);
  const separator = address.lastIndexOf(':');
  const host = address.slice(0, separator).replace(/^\[|\]$/g, '');
  const servername = settings.serverNameOverride ?? (isIP(host) ? undefined : host);
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(address.slice(separator + 1)),
      ALPNProtocols: ['h2'],
      ...(servername ? { servername } : {}),
      ...(settings.serverRootCACertificate ? { ca: Buffer.from(settings.serverRootCACertificate) } : {}),
      ...(settings.clientCertPair ? { cert: Buffer.from(settings.clientCertPair.crt), key: Buffer.from(settings.clientCertPair.key) } : {}),
    });
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(undefined), HANDSHAKE_MS);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      setTimeout(() => done(undefined), ALERT_MS);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(`${error.code ?? 'TLS'}: ${error.message}`));
  });
}

/**
 * The error to report when connecting failed: the handshake's own failure when a TLS handshake with the same settings
 * fails (gRPC's own message is often a bare deadline or "connection closed"), else the error itself.
 *
 * @example throw await explainConnectFailure(options, error)
 */
export async function explainConnectFailure(options: TemporalConnectionOptions, error: unknown): Promise<Error> {
  const handshake = await tlsHandshakeFailure(options);
  if (handshake) return new Error(`Temporal at ${options.address}: TLS handshake failed: ${handshake}`, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}
