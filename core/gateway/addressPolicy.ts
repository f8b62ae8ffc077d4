import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * IANA's global unicast block. ipaddr.js names the special-purpose ranges inside it and calls everything else
 * `unicast`, including addresses outside it that no supplier can live at: the deprecated IPv4-compatible `::a.b.c.d`
 * (written in hex, `::808:808`, the library calls it unicast) and the rest of `::/8`.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * The address exactly as the socket will see it. The WHATWG URL serializer writes IPv6 in hex without a dotted
 * quad, so `::1.2.3.4` (IPv4-compatible) and `::ffff:1.2.3.4` (IPv4-mapped) stay apart: ipaddr.js 2.5.0 parses the
 * dotted `::a.b.c.d` as if it were `::ffff:a.b.c.d`, and the resolver prints IPv4-compatible answers that way.
 */
function canonical(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return undefined;
  return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
}

/**
 * True for an IP literal the gateway may connect to without `GATEWAY_ALLOW_PRIVATE_NETWORKS`: what ipaddr.js
 * classifies as public unicast (`range() === 'unicast'`; IPv6 also inside 2000::/3), an IPv4-mapped address judged
 * by its IPv4 part. Every other range is refused, the IPv4-embedding ones too (6to4, Teredo, NAT64 64:ff9b::/96 and
 * /48, IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`): what they reach is up to a relay, not this check.
 * A zone index (`fe80::1%eth0`) only qualifies non-global addresses; anything that is not an IP is refused.
 *
 * @example isPublicAddress('93.184.216.34') // true
 * @example isPublicAddress('192.0.2.1') // false (TEST-NET-1)
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (bare.includes('%')) return false;
  const parsed = canonical(bare);
  if (!parsed) return false;
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** The address policy from configuration: everything when private networks are allowed, else public addresses only. */
export function addressPolicy(allowPrivateNetworks: boolean): (address: string) => boolean {
  return allowPrivateNetworks ? () => true : isPublicAddress;
}
