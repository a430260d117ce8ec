import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address ranges an outgoing call to a URL a provider chose never reaches: whatever is not
 * the public Internet (IANA's special-purpose registries), so that such a URL cannot be turned
 * against the platform's own network, its cloud metadata service or its neighbours.
 */

/** What a refused range is, as a delivery's error says it. */
export type RefusedRange =
  'loopback' | 'private' | 'link-local' | 'carrier-grade NAT' | 'multicast' | 'unspecified' | 'reserved';

interface Range {
  first: bigint;
  prefix: number;
  bits: 32 | 128;
  kind: RefusedRange;
}

function range(cidr: string, kind: RefusedRange): Range {
  const [address, prefix] = cidr.split('/');
  const bits = isIPv4(address) ? 32 : 128;
  return { first: bits === 32 ? ipv4Value(address) : ipv6Value(address)!, prefix: Number(prefix), bits, kind };
}

const IPV4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'reserved'),
  range('192.88.99.0/24', 'reserved'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved'),
  range('198.51.100.0/24', 'reserved'),
  range('203.0.113.0/24', 'reserved'),
  range('224.0.0.0/4', 'multicast'),
  // Class E and the broadcast address.
  range('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  // IPv4-compatible addresses (deprecated): never routed.
  range('::/96', 'reserved'),
  range('64:ff9b:1::/48', 'private'),
  range('100::/64', 'reserved'),
  range('2001::/23', 'reserved'),
  range('2001:db8::/32', 'reserved'),
  range('fc00::/7', 'private'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'private'),
  range('ff00::/8', 'multicast'),
];

/** IPv6 prefixes whose last 32 bits are an IPv4 address that the packet ends up reaching. */
const EMBEDDING_IPV4: Range[] = [
  range('::ffff:0:0/96', 'reserved'), // IPv4-mapped
  range('64:ff9b::/96', 'reserved'), // NAT64
];
/** 6to4: the IPv4 address sits in bits 16 to 48. */
const SIX_TO_FOUR = range('2002::/16', 'reserved');
/** Only this block of IPv6 is allocated as global unicast; the rest is reserved. */
const GLOBAL_UNICAST = range('2000::/3', 'reserved');

function contains(block: Range, value: bigint): boolean {
  const shift = BigInt(block.bits - block.prefix);
  return value >> shift === block.first >> shift;
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address in any textual form (zone index dropped), or null. */
function ipv6Value(address: string): bigint | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return null;
  let text = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4Value(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function ipv4Range(value: bigint): RefusedRange | null {
  return IPV4_RANGES.find((block) => contains(block, value))?.kind ?? null;
}

/**
 * The refused range an IP address (v4 or v6, in any form, IPv4 inside IPv6 included) falls in,
 * or null for an address of the public Internet. Anything that is not an IP address is refused.
 */
export function refusedRangeOf(address: string): RefusedRange | null {
  if (isIPv4(address)) return ipv4Range(ipv4Value(address));
  const value = ipv6Value(address);
  if (value === null) return 'reserved';
  const named = IPV6_RANGES.find((block) => contains(block, value));
  if (named) return named.kind;
  if (EMBEDDING_IPV4.some((block) => contains(block, value))) return ipv4Range(value & 0xffffffffn);
  if (contains(SIX_TO_FOUR, value)) return ipv4Range((value >> 80n) & 0xffffffffn);
  return contains(GLOBAL_UNICAST, value) ? null : 'reserved';
}

/** `a private address`, `an unspecified address`. */
export function rangeNoun(kind: RefusedRange): string {
  return `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;
}
