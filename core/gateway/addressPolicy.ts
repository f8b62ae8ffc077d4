import { BlockList, isIP } from 'node:net';

/** Addresses a supplier API never lives at: private, loopback, link-local and other non-public ranges. */
const NON_PUBLIC: Array<[address: string, prefix: number, family: 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 3, 'ipv4'], // multicast and reserved
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const blocked = new BlockList();
for (const [address, prefix, family] of NON_PUBLIC) blocked.addSubnet(address, prefix, family);

/**
 * True for an IP literal the gateway may connect to without `GATEWAY_ALLOW_PRIVATE_NETWORKS`;
 * IPv4-mapped IPv6 addresses are judged by their IPv4 part. Anything that is not an IP is refused.
 *
 * @example isPublicAddress('93.184.216.34') // true
 * @example isPublicAddress('169.254.169.254') // false
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  const candidate = mapped ?? bare;
  const family = isIP(candidate);
  if (family === 0) return false;
  return !blocked.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
}
