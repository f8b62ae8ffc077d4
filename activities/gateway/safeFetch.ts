import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../../core/gateway/addressPolicy';

export interface OutboundRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** Header names to drop when a redirect leaves the original origin (the credentials). */
  credentialHeaders?: string[];
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SafeFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Which resolved addresses may be contacted; refuse non-public ones unless private networks are allowed. */
  isAllowedAddress: (address: string) => boolean;
  maxRedirects?: number;
  /**
   * Called once the first request's connection is open (a reused one at once): from then on its bytes may reach the
   * supplier, so a failure no longer proves it was not sent. Redirects follow an answer, which is already past this.
   */
  onDispatch?: () => void;
}

/** The destination (or a redirect's destination) resolves to an address the policy refuses. */
export class DestinationNotAllowedError extends Error {
  constructor(
    readonly host: string,
    readonly viaRedirect: boolean,
  ) {
    super(`refused to connect to ${host}: private, loopback and link-local addresses are not allowed`);
    this.name = 'DestinationNotAllowedError';
  }
}

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`provider response exceeds ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

export class ProviderTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`provider did not answer within ${timeoutMs} ms`);
    this.name = 'ProviderTimeoutError';
  }
}

/** The address policy from configuration: everything when private networks are allowed, else public addresses only. */
export function addressPolicy(allowPrivateNetworks: boolean): (address: string) => boolean {
  return allowPrivateNetworks ? () => true : isPublicAddress;
}

const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }) };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Resolves like `dns.lookup` but fails when any address is refused, so the checked address is the one connected to. */
function guardedLookup(isAllowed: (address: string) => boolean, viaRedirect: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isAllowed(entry.address))) {
        return callback(new DestinationNotAllowedError(hostname, viaRedirect), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Calls `onDispatch` when the request's socket is connected (TLS: once the handshake is done), or at once on a reused one. */
function watchDispatch(outgoing: http.ClientRequest, secure: boolean, onDispatch: () => void): void {
  outgoing.once('socket', (socket) => {
    if (outgoing.reusedSocket || !socket.connecting) return onDispatch();
    socket.once(secure ? 'secureConnect' : 'connect', onDispatch);
  });
}

function sendOnce(
  request: OutboundRequest,
  options: SafeFetchOptions,
  viaRedirect: boolean,
  signal: AbortSignal,
  onDispatch?: () => void,
): Promise<OutboundResponse> {
  const { url } = request;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !options.isAllowedAddress(host)) return Promise.reject(new DestinationNotAllowedError(host, viaRedirect));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: request.method,
        headers: request.headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(options.isAllowedAddress, viaRedirect),
        signal,
      },
      (incoming) => {
        const declared = Number(incoming.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          incoming.destroy();
          return reject(new ResponseTooLargeError(options.maxBytes));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            incoming.destroy();
            reject(new ResponseTooLargeError(options.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
        incoming.on('error', reject);
      },
    );
    if (onDispatch) watchDispatch(outgoing, url.protocol === 'https:', onDispatch);
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) becomes a body-less GET; credentials stay on their origin. */
function redirected(request: OutboundRequest, status: number, location: string): OutboundRequest {
  const url = new URL(location, request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`redirect to unsupported protocol ${url.protocol}`);
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  const headers = { ...request.headers };
  if (toGet) for (const name of Object.keys(headers)) if (/^content-(type|length)$/i.test(name)) delete headers[name];
  if (url.origin !== request.url.origin) {
    const drop = new Set([...(request.credentialHeaders ?? []), 'authorization', 'cookie'].map((name) => name.toLowerCase()));
    for (const name of Object.keys(headers)) if (drop.has(name.toLowerCase())) delete headers[name];
  }
  return { ...request, url, method: toGet ? 'GET' : request.method, headers, body: toGet ? undefined : request.body };
}

/**
 * One outbound HTTP exchange with the gateway's safety rules: every resolved address (and every
 * redirect's) must pass the address policy, at most `maxRedirects` redirects, the whole exchange
 * within `timeoutMs`, and at most `maxBytes` of response body.
 *
 * @example await safeFetch({ method: 'GET', url: new URL('https://kyc.example/players/1'), headers: {} }, { timeoutMs: 10000, maxBytes: 5 << 20, isAllowedAddress: isPublicAddress })
 */
export async function safeFetch(request: OutboundRequest, options: SafeFetchOptions): Promise<OutboundResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ProviderTimeoutError(options.timeoutMs)), options.timeoutMs);
  try {
    let current = request;
    for (let hop = 0; ; hop += 1) {
      const response = await sendOnce(current, options, hop > 0, controller.signal, hop === 0 ? options.onDispatch : undefined);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location || hop >= (options.maxRedirects ?? 5)) return response;
      current = redirected(current, response.status, location);
    }
  } catch (error) {
    if (controller.signal.aborted) throw new ProviderTimeoutError(options.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
