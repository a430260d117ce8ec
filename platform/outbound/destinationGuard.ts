import { lookup as systemLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { rangeNoun, type RefusedRange, refusedRangeOf } from './addressRanges.js';

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver unless a test gives its own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** Which destinations outgoing calls to providers' URLs may reach. */
export interface DestinationPolicy {
  /** Loopback, private, link-local and every other non-public range allowed (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  resolve: Resolver;
  /**
   * Addresses reached even though their range is refused. Tests only: the local receiver that
   * stands in for a public host, so that a delivery through the guard can be watched.
   */
  allowedAddresses: ReadonlySet<string>;
}

/** A call refused because of where it would go: recorded as the delivery's failure, never thrown further. */
export class DestinationRefusedError extends Error {
  readonly code = 'EDESTINATIONREFUSED';
}

/** The refused range of an IP address under the policy, or null when it may be reached. */
function refusedRange(policy: DestinationPolicy, address: string): RefusedRange | null {
  if (policy.allowPrivate || policy.allowedAddresses.has(address)) return null;
  return refusedRangeOf(address);
}

/** Why an IP address is refused (`10.0.0.1 is a private address`), or null. */
function addressRefusal(policy: DestinationPolicy, address: string): string | null {
  const kind = refusedRange(policy, address);
  return kind && `${address} is ${rangeNoun(kind)}`;
}

/** Why a name is refused, from the addresses it resolved to: any refused one is enough, the connection could pick it. */
function resolvedRefusal(policy: DestinationPolicy, hostname: string, addresses: ResolvedAddress[]): string | null {
  for (const { address } of addresses) {
    const kind = refusedRange(policy, address);
    if (kind) return `${hostname} resolves to ${address}, ${rangeNoun(kind)}`;
  }
  return null;
}

/** Why the policy refuses a host (an IP literal, or a name through the addresses it resolves to), or null. */
export async function hostRefusal(policy: DestinationPolicy, hostname: string): Promise<string | null> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return addressRefusal(policy, bare);
  if (policy.allowPrivate) return null;
  return resolvedRefusal(policy, bare, await policy.resolve(bare));
}

/**
 * The `lookup` of the sockets: resolves once and refuses before connecting when an address is
 * refused, so the address checked is the address connected to (a name that changes its answer
 * between a check and the call, DNS rebinding, gains nothing).
 */
function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname).then(
      (addresses) => {
        const refused = resolvedRefusal(policy, hostname, addresses);
        if (refused) {
          callback(new DestinationRefusedError(refused), '', 4);
        } else if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/**
 * An HTTP agent whose every connection is checked against the policy: an IP literal before
 * connecting, a name through the guarded lookup, and the peer's address once connected.
 */
export function guardedAgent(policy: DestinationPolicy, connectTimeoutMs: number): Agent {
  const connect = buildConnector({ lookup: guardedLookup(policy), timeout: connectTimeoutMs });
  return new Agent({
    connect(options, callback) {
      const literal = isIP(options.hostname) ? addressRefusal(policy, options.hostname) : null;
      if (literal) {
        callback(new DestinationRefusedError(literal), null);
        return;
      }
      connect(options, (...result) => {
        const [error, socket] = result;
        if (error) {
          callback(error, null);
          return;
        }
        const peer = socket.remoteAddress ? addressRefusal(policy, socket.remoteAddress) : null;
        if (peer) {
          socket.destroy();
          callback(new DestinationRefusedError(peer), null);
          return;
        }
        callback(null, socket);
      });
    },
  });
}
