import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isPublicAddress } from '../../core/gateway/addressPolicy';

/**
 * A GET with the gateway's SSRF rules (activities/gateway/safeFetch.ts, which commands may not import): every
 * address the host resolves to must pass the address policy (core/gateway/addressPolicy.ts) and the address checked is
 * the one connected to; no redirect is followed; the body is read up to `maxBytes` and the whole exchange is cut at
 * `timeoutMs`. Failures are thrown as `GuardedGetError` with a reason a person can read, never the body.
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

function guardedLookup(isAllowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isAllowed(entry.address))) {
        return callback(new GuardedGetError(`${hostname} resolves to a private, loopback or link-local address`), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** @example await guardedGet(new URL('https://claude.ai/oauth/client.json'), { timeoutMs: 5000, maxBytes: 5120, allowPrivateNetworks: false }) */
export function guardedGet(url: URL, options: GuardedGetOptions): Promise<GuardedGetResponse> {
  const isAllowed = options.allowPrivateNetworks ? () => true : isPublicAddress;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowed(host)) return Promise.reject(new GuardedGetError(`${host} is a private, loopback or link-local address`));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        lookup: guardedLookup(isAllowed),
        timeout: options.timeoutMs,
        agent: false,
        ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
      },
      (incoming) => {
        const declared = Number(incoming.headers['content-length']);
        const tooLarge = () => reject(new GuardedGetError(`the document is larger than ${options.maxBytes} bytes`));
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          incoming.destroy();
          return tooLarge();
        }
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            incoming.destroy();
            tooLarge();
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            contentType: String(incoming.headers['content-type'] ?? ''),
            cacheControl: incoming.headers['cache-control'],
            body: Buffer.concat(chunks),
          }),
        );
        incoming.on('error', (error) => reject(new GuardedGetError(`reading the document failed: ${error.message}`)));
      },
    );
    const timer = setTimeout(() => outgoing.destroy(new GuardedGetError(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    outgoing.on('close', () => clearTimeout(timer));
    outgoing.on('timeout', () => outgoing.destroy(new GuardedGetError(`no answer within ${options.timeoutMs} ms`)));
    outgoing.on('error', (error) => reject(error instanceof GuardedGetError ? error : new GuardedGetError(`fetching the document failed: ${error.message}`)));
    outgoing.end();
  });
}
