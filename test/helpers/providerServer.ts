import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { startLoopbackServer } from '../../tools/stack/loopbackServer';

/** A request as the supplier API received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface ProviderReply {
  status: number;
  body?: unknown;
  /** Sent as-is instead of JSON. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Drop the connection without answering (a network failure). */
  destroy?: boolean;
}

export type ProviderHandler = (request: ReceivedRequest) => ProviderReply | Promise<ProviderReply>;

/** How the supplier checks its callers: the same scheme is declared in its OpenAPI document. */
export type ProviderAuth =
  | { kind: 'apiKeyHeader'; name: string; value: string }
  | { kind: 'apiKeyQuery'; name: string; value: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'hmac'; secret: string }
  | { kind: 'none'; expectedBearer?: string };

export interface TestProvider {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  handle(handler: ProviderHandler): void;
  close(): Promise<void>;
}

const same = (a: string | undefined, b: string) => a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** True when the request carries exactly the credentials `auth` expects (checked the way a real supplier would). */
export function authorised(request: ReceivedRequest, auth: ProviderAuth): boolean {
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  switch (auth.kind) {
    case 'apiKeyHeader':
      return same(header(auth.name), auth.value);
    case 'apiKeyQuery':
      return same(request.query.get(auth.name) ?? undefined, auth.value);
    case 'bearer':
      return same(header('authorization'), `Bearer ${auth.token}`);
    case 'basic':
      return same(header('authorization'), `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`);
    case 'hmac':
      return (
        header('x-signature-algorithm') === 'HMAC-SHA256' && same(header('x-signature'), createHmac('sha256', auth.secret).update(request.body).digest('hex'))
      );
    case 'none':
      return auth.expectedBearer === undefined || same(header('authorization'), `Bearer ${auth.expectedBearer}`);
  }
}

/**
 * A real supplier API on 127.0.0.1 (a `node:http` server on a free port) that records every request
 * and answers through a replaceable handler.
 */
export async function startProvider(handler: ProviderHandler): Promise<TestProvider> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const server = await startLoopbackServer(async (incoming, body, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://provider.test');
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const request: ReceivedRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body, json };
    requests.push(request);
    const reply = await current(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (outgoing.destroyed) return;
    if (reply.destroy) {
      incoming.socket.destroy();
      return;
    }
    const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    outgoing.writeHead(reply.status, {
      ...(reply.raw === undefined && reply.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    });
    outgoing.end(payload);
  });
  return {
    url: server.url,
    port: server.port,
    requests,
    handle: (next) => {
      current = next;
    },
    close: server.close,
  };
}
