import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';

/**
 * The parts of an outbound request that keep a tenant's URL off private networks and a supplier's answer within its
 * size, shared by the gateway's calls (activities/gateway/safeFetch.ts) and the MCP client-document fetch
 * (commands/mcpOAuth/guardedGet.ts): each words its own errors.
 */

/** The URL's host when it is an IP literal the policy refuses (no lookup happens for a literal), else null. */
export function refusedLiteral(url: URL, isAllowed: (address: string) => boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 && !isAllowed(host) ? host : null;
}

/**
 * Resolves like `dns.lookup` but fails with `refuse(hostname)` when any address is refused, so the address checked is
 * the one connected to (no second resolution an attacker's DNS could answer differently).
 */
export function guardedLookup(isAllowed: (address: string) => boolean, refuse: (hostname: string) => Error): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isAllowed(entry.address))) return callback(refuse(hostname), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * The body of `incoming`, refused with `tooLarge()` as soon as it declares or sends more than `maxBytes`: the stream is
 * destroyed at that byte, so an endless answer costs at most `maxBytes` of memory.
 */
export function readLimited(incoming: IncomingMessage, maxBytes: number, tooLarge: () => Error, failed: (error: Error) => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(incoming.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      incoming.destroy();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        incoming.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', (error) => reject(failed(error)));
  });
}
