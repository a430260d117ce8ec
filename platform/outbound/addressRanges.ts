import { BlockList, isIPv4, isIPv6, SocketAddress } from 'node:net';

/**
 * The address ranges an outgoing call to a URL a provider chose never reaches: whatever is not
 * the public Internet (IANA's special-purpose registries), so that such a URL cannot be turned
 * against the platform's own network, its cloud metadata service or its neighbours. The matching
 * is Node's `net.BlockList`, which also matches an IPv4 range's IPv4-mapped form (::ffff:0:0/96).
 */

/** What a refused range is, as a delivery's error says it. */
export type RefusedRange =
  'loopback' | 'private' | 'link-local' | 'carrier-grade NAT' | 'multicast' | 'unspecified' | 'reserved';

/** In the order they are asked: `reserved` last, its ::/96 holds the unspecified :: and the loopback ::1. */
const KINDS: RefusedRange[] = [
  'loopback',
  'private',
  'link-local',
  'carrier-grade NAT',
  'multicast',
  'unspecified',
  'reserved',
];

const IPV4: Record<RefusedRange, string[]> = {
  loopback: ['127.0.0.0/8'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
  'link-local': ['169.254.0.0/16'],
  'carrier-grade NAT': ['100.64.0.0/10'],
  multicast: ['224.0.0.0/4'],
  unspecified: ['0.0.0.0/8'],
  reserved: [
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.88.99.0/24',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    // Class E and the broadcast address.
    '240.0.0.0/4',
  ],
};

const IPV6: Record<RefusedRange, string[]> = {
  loopback: ['::1/128'],
  private: ['64:ff9b:1::/48', 'fc00::/7', 'fec0::/10'],
  'link-local': ['fe80::/10'],
  'carrier-grade NAT': [],
  multicast: ['ff00::/8'],
  unspecified: ['::/128'],
  // ::/96: IPv4-compatible addresses (deprecated), never routed.
  reserved: ['::/96', '100::/64', '2001::/23', '2001:db8::/32'],
};

/** An IPv4 range where IPv6 carries it to the IPv4 address: NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
function embeddedInIpv6(cidr: string): string[] {
  const [address, prefix] = cidr.split('/');
  const [a, b, c, d] = address.split('.').map(Number);
  const group = (high: number, low: number) => ((high << 8) | low).toString(16);
  return [`64:ff9b::${address}/${96 + Number(prefix)}`, `2002:${group(a, b)}:${group(c, d)}::/${16 + Number(prefix)}`];
}

function blockList(ipv4: string[], ipv6: string[]): BlockList {
  const list = new BlockList();
  const add = (cidr: string, family: 'ipv4' | 'ipv6') => {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), family);
  };
  for (const cidr of ipv4) add(cidr, 'ipv4');
  for (const cidr of ipv6) add(cidr, 'ipv6');
  return list;
}

const REFUSED = KINDS.map(
  (kind) => [kind, blockList(IPV4[kind], [...IPV4[kind].flatMap(embeddedInIpv6), ...IPV6[kind]])] as const,
);

/** IPv6 outside these is reserved: only 2000::/3 is allocated as global unicast; the other two carry IPv4. */
const ROUTED_IPV6 = blockList([], ['2000::/3', '::ffff:0:0/96', '64:ff9b::/96']);

/** The address as `BlockList` reads it (brackets and zone index dropped from IPv6), or null. */
function socketAddress(address: string): SocketAddress | null {
  if (isIPv4(address)) return new SocketAddress({ address, family: 'ipv4' });
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return null;
  try {
    return new SocketAddress({ address: bare, family: 'ipv6' });
  } catch {
    return null;
  }
}

/**
 * The refused range an IP address (v4 or v6, in any form, IPv4 inside IPv6 included) falls in,
 * or null for an address of the public Internet. Anything that is not an IP address is refused.
 */
export function refusedRangeOf(address: string): RefusedRange | null {
  const socket = socketAddress(address);
  if (!socket) return 'reserved';
  for (const [kind, list] of REFUSED) if (list.check(socket)) return kind;
  return socket.family === 'ipv6' && !ROUTED_IPV6.check(socket) ? 'reserved' : null;
}

/** `a private address`, `an unspecified address`. */
export function rangeNoun(kind: RefusedRange): string {
  return `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;
}
