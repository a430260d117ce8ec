import type { RefusedRange } from '../../platform/outbound/addressRanges.js';
import type { ResolvedAddress } from '../../platform/outbound/index.js';

/**
 * Addresses of each refused range, with their edges, as a URL, a resolver or a socket may
 * present them. Shared with the tests of the guard at save and at call time.
 */
export const REFUSED_ADDRESSES: Record<RefusedRange, string[]> = {
  loopback: ['127.0.0.1', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1'],
  private: [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    'fc00::1',
    'fd12:3456:789a::1',
    '::ffff:10.0.0.1',
    '::ffff:c0a8:101',
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
  ],
  'link-local': ['169.254.169.254', '169.254.0.1', 'fe80::1', 'febf::1', 'fe80::1%eth0', '::ffff:169.254.169.254'],
  'carrier-grade NAT': ['100.64.0.1', '100.127.255.254', '::ffff:100.64.0.1'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1', '::ffff:224.0.0.1'],
  unspecified: ['0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0'],
  reserved: [
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '192.0.0.8',
    '2001:db8::1',
    '100::1',
    '::1.2.3.4',
    '4000::1',
    '::ffff:203.0.113.9',
  ],
};

/** A host name resolving to the index-th address of a refused range (see resolvingToRefusedAddresses). */
export const nameOfRefused = (kind: string, index: number) =>
  `${kind.replace(/\W/g, '-').toLowerCase()}-${index}.example.org`;

/** Every name of `nameOfRefused`, with the one address it answers: a script for `scriptedResolver`. */
export function resolvingToRefusedAddresses(): Record<string, string[][]> {
  const names: Record<string, string[][]> = {};
  for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES))
    for (const [index, address] of addresses.entries()) names[nameOfRefused(kind, index)] = [[address]];
  return names;
}

/**
 * A test's own resolver: each name answers the next of its lists, then the last one from then on
 * (a name that changes its answer between two calls); an unknown name is not found.
 */
export function scriptedResolver(script: Record<string, string[][]>) {
  const asked: string[] = [];
  const resolve = (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const answers = script[hostname];
    if (!answers)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    return Promise.resolve(next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const));
  };
  return { resolve, asked };
}
