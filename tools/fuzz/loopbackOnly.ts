import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net from 'node:net';

/** Loopback addresses: 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return /^127\./.test(bare) || bare === '::1' || /^::ffff:127\./.test(bare);
}

type Lookup = NonNullable<net.TcpSocketConnectOpts['lookup']>;

function loopbackLookup(original: Lookup): Lookup {
  return (hostname, options, callback) => {
    original(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const refused = list.find((entry) => !isLoopback(entry.address));
      if (list.length === 0 || refused) return callback(refusal(`${hostname} (${refused?.address ?? 'no address'})`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function refusal(destination: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`fuzz: refused to connect to ${destination}: only loopback is reachable during a fuzz run`), { code: 'ECONNREFUSED' });
}

/**
 * Makes every TCP connection of this process loopback-only. The fuzz run executes the gateway's
 * activities in-process, and generated connections may carry any `baseUrl`: this guard keeps a
 * generated public address from ever being contacted, whatever the gateway's own address policy.
 * Unix sockets (`path`) are untouched.
 *
 * @example restrictToLoopback(); // then start the stack
 */
export function restrictToLoopback(): void {
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    if (typeof first === 'object' && first !== null && !('path' in first && (first as { path?: unknown }).path)) {
      const options = first as net.TcpSocketConnectOpts;
      const host = options.host ?? 'localhost';
      if (net.isIP(host.replace(/^\[|\]$/g, '')) !== 0 && !isLoopback(host)) {
        process.nextTick(() => this.destroy(refusal(host)));
        return this;
      }
      options.lookup = loopbackLookup(options.lookup ?? (dnsLookup as unknown as Lookup));
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
      const host = typeof args[1] === 'string' ? args[1] : 'localhost';
      if (!isLoopback(host) && host !== 'localhost') {
        process.nextTick(() => this.destroy(refusal(host)));
        return this;
      }
    }
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
}
