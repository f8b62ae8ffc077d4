import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { guardedLookup, readLimited, refusedLiteral } from '../../core/gateway/guardedConnection';

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

const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }) };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
  const refused = refusedLiteral(url, options.isAllowedAddress);
  if (refused) return Promise.reject(new DestinationNotAllowedError(refused, viaRedirect));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: request.method,
        headers: request.headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(options.isAllowedAddress, (host) => new DestinationNotAllowedError(host, viaRedirect)),
        signal,
      },
      (incoming) =>
        readLimited(
          incoming,
          options.maxBytes,
          () => new ResponseTooLargeError(options.maxBytes),
          (error) => error,
        ).then((body) => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }), reject),
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
 * @example await safeFetch({ method: 'GET', url: new URL('https://kyc.example/players/1'), headers: {} }, { timeoutMs: 10000, maxBytes: 5 << 20, isAllowedAddress: addressPolicy(false) })
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
