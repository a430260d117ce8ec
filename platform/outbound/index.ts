import { Agent, type Dispatcher } from 'undici';
import type { AppEnv } from '../appEnv.js';
import { type DestinationPolicy, guardedAgent, type Resolver, systemResolver } from './destinationGuard.js';
import { OutboundHttp } from './outboundHttp.js';
import { savedUrlRefusal } from './savedUrls.js';

export { DestinationRefusedError, type Resolver, type ResolvedAddress } from './destinationGuard.js';
export { describeOutcome, MAX_ANSWER_BYTES, OutboundHttp, type OutboundOutcome } from './outboundHttp.js';
export { HTTPS_ONLY_MESSAGE } from './savedUrls.js';

/** A connection not made within this time fails the call (within the call's own time limit). */
const CONNECT_TIMEOUT_MS = 5_000;

/** Every outgoing call of the process goes through one of these two clients. */
export interface Outbound {
  /** Calls to URLs that providers chose: only public addresses unless OUTBOUND_ALLOW_PRIVATE. */
  toProviders: OutboundHttp;
  /**
   * Calls to services the operator configured (GEOCODER_URL): the same limits (no redirects,
   * capped answers, time limits) but any address, since the operator may run them on its own
   * network, and no caller of the API can change where they go.
   */
  toOperatorServices: OutboundHttp;
  /** Why a URL a provider saves for the platform to call is refused (a 400 naming the field), or null. */
  savedUrlRefusal(url: string): Promise<string | null>;
  close(): Promise<void>;
}

export interface OutboundOptions {
  appEnv: AppEnv;
  allowPrivate: boolean;
  /** Tests: a resolver of their own (a name answering differently on the second call). */
  resolve?: Resolver;
  /** Tests: addresses reached despite their range (the local receiver standing in for a public host). */
  allowedAddresses?: string[];
  /**
   * Tests: a stand-in for the network (undici's MockAgent), used by both clients instead of
   * their agents, the guard included, for suites that exercise something else.
   */
  transport?: Dispatcher;
}

export function createOutbound(options: OutboundOptions): Outbound {
  const policy: DestinationPolicy = {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve ?? systemResolver,
    allowedAddresses: new Set(options.allowedAddresses ?? []),
  };
  const toProviders = new OutboundHttp(options.transport ?? guardedAgent(policy, CONNECT_TIMEOUT_MS));
  const toOperatorServices = new OutboundHttp(
    options.transport ?? new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } }),
  );
  return {
    toProviders,
    toOperatorServices,
    savedUrlRefusal: (url) => savedUrlRefusal(url, options.appEnv, policy),
    async close() {
      // A transport given is its giver's to close: several processes' worth of clients may share one.
      if (options.transport) return;
      await Promise.all([toProviders.close(), toOperatorServices.close()]);
    },
  };
}
