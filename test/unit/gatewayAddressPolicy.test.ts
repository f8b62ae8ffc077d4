import { isPublicAddress } from '../../core/gateway/addressPolicy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '[::1]',
    'localhost',
    'not-an-ip',
    '127.1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  describe('IANA special-purpose IPv4 ranges', () => {
    it.each([
      ['192.0.2.1', 'TEST-NET-1 (192.0.2.0/24)'],
      ['192.0.2.2', 'TEST-NET-1, where this machine may live'],
      ['198.51.100.7', 'TEST-NET-2 (198.51.100.0/24)'],
      ['203.0.113.9', 'TEST-NET-3 (203.0.113.0/24)'],
      ['192.0.0.9', 'IETF protocol assignments (192.0.0.0/24)'],
      ['192.88.99.1', '6to4 relay anycast (192.88.99.0/24)'],
      ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
      ['192.31.196.1', 'AS112 (192.31.196.0/24)'],
      ['192.52.193.1', 'AMT (192.52.193.0/24)'],
      ['192.175.48.1', 'AS112 (192.175.48.0/24)'],
      ['224.0.0.1', 'multicast (224.0.0.0/4)'],
      ['240.0.0.1', 'reserved (240.0.0.0/4)'],
      ['255.255.255.255', 'limited broadcast'],
    ])('refuses %s: %s', (address) => expect(isPublicAddress(address)).toBe(false));
  });

  describe('IANA special-purpose IPv6 ranges and IPv4-embedding forms', () => {
    it.each([
      ['64:ff9b::c000:201', 'NAT64 well-known prefix (64:ff9b::/96)'],
      ['64:ff9b::8.8.8.8', 'NAT64 of a public IPv4, written dotted'],
      ['64:ff9b:1::1', 'local-use NAT64 (64:ff9b:1::/48)'],
      ['2002::1', '6to4 (2002::/16)'],
      ['2002:808:808::1', '6to4 of a public IPv4'],
      ['fec0::1', 'deprecated site-local (fec0::/10)'],
      ['feff::1', 'deprecated site-local, top of the range'],
      ['::1.2.3.4', 'IPv4-compatible, dotted (::/96)'],
      ['::8.8.8.8', 'IPv4-compatible of a public IPv4, dotted'],
      ['::808:808', 'IPv4-compatible of a public IPv4, hex'],
      ['::ffff:0:808:808', 'SIIT IPv4-translated (::ffff:0:0:0/96)'],
      ['2001::1', 'Teredo (2001::/32)'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo with an embedded server and client'],
      ['2001:db8::1', 'documentation (2001:db8::/32)'],
      ['2001:2::1', 'benchmarking (2001:2::/48)'],
      ['2001:10::1', 'ORCHID (2001:10::/28)'],
      ['2001:20::1', 'ORCHIDv2 (2001:20::/28)'],
      ['3fff::1', 'documentation (3fff::/20)'],
      ['100::1', 'discard-only (100::/64)'],
      ['5f00::1', 'segment routing (5f00::/16)'],
      ['ff02::1', 'multicast (ff00::/8)'],
      ['::ffff:192.0.2.1', 'IPv4-mapped TEST-NET-1'],
      ['::ffff:c633:6401', 'IPv4-mapped TEST-NET-2, hex'],
      ['::ffff:203.0.113.1', 'IPv4-mapped TEST-NET-3'],
      ['1::1', 'unassigned, outside 2000::/3'],
    ])('refuses %s: %s', (address) => expect(isPublicAddress(address)).toBe(false));
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '[2606:4700:4700::1111]', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});
