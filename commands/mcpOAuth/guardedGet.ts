import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { addressPolicy } from '../../core/gateway/addressPolicy';
import { guardedLookup, readLimited, refusedLiteral } from '../../core/gateway/guardedConnection';

/**
 * A GET with the gateway's SSRF rules (core/gateway/guardedConnection.ts, shared with the gateway's calls): every
 * address the host resolves to must pass the address policy and the address checked is the one connected to; no
 * redirect is followed; the body is read up to `maxBytes` and the whole exchange is cut at `timeoutMs`. Failures are
 * thrown as `GuardedGetError` with a reason a person can read, never the body.
 */
export class GuardedGetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuardedGetError';
  }
}

export interface GuardedGetOptions {
  timeoutMs: number;
  maxBytes: number;
  allowPrivateNetworks: boolean;
  /** Extra trusted certificate authorities (PEM), added to the public roots. */
  extraCa?: string;
}

export interface GuardedGetResponse {
  status: number;
  contentType: string;
  cacheControl: string | undefined;
  body: Buffer;
}

/** @example await guardedGet(new URL('https://claude.ai/oauth/client.json'), { timeoutMs: 5000, maxBytes: 5120, allowPrivateNetworks: false }) */
export function guardedGet(url: URL, options: GuardedGetOptions): Promise<GuardedGetResponse> {
  const isAllowed = addressPolicy(options.allowPrivateNetworks);
  const refused = refusedLiteral(url, isAllowed);
  if (refused) return Promise.reject(new GuardedGetError(`${refused} is a private, loopback or link-local address`));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        lookup: guardedLookup(isAllowed, (host) => new GuardedGetError(`${host} resolves to a private, loopback or link-local address`)),
        timeout: options.timeoutMs,
        agent: false,
        ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
      },
      (incoming) =>
        readLimited(
          incoming,
          options.maxBytes,
          () => new GuardedGetError(`the document is larger than ${options.maxBytes} bytes`),
          (error) => new GuardedGetError(`reading the document failed: ${error.message}`),
        ).then(
          (body) =>
            resolve({
              status: incoming.statusCode ?? 0,
              contentType: String(incoming.headers['content-type'] ?? ''),
              cacheControl: incoming.headers['cache-control'],
              body,
            }),
          reject,
        ),
    );
    const timer = setTimeout(() => outgoing.destroy(new GuardedGetError(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    outgoing.on('close', () => clearTimeout(timer));
    outgoing.on('timeout', () => outgoing.destroy(new GuardedGetError(`no answer within ${options.timeoutMs} ms`)));
    outgoing.on('error', (error) => reject(error instanceof GuardedGetError ? error : new GuardedGetError(`fetching the document failed: ${error.message}`)));
    outgoing.end();
  });
}
