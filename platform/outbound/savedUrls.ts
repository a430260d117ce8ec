import type { AppEnv } from '../appEnv.js';
import { type DestinationPolicy, hostRefusal } from './destinationGuard.js';

/** A URL is saved without waiting longer than this for its name to resolve. */
const SAVE_RESOLUTION_TIMEOUT_MS = 3_000;

export const HTTPS_ONLY_MESSAGE = 'In production the platform calls only https URLs on the default port (443)';

/**
 * Why a URL a provider saves for the platform to call (booking, cancellation, notification) is
 * refused, or null. In production only https on the default port is taken; and unless
 * OUTBOUND_ALLOW_PRIVATE, neither an address outside the public Internet nor a name resolving
 * to one. A name that does not resolve (yet) is taken: every call checks again, at connection.
 */
export async function savedUrlRefusal(url: string, appEnv: AppEnv, policy: DestinationPolicy): Promise<string | null> {
  const parsed = new URL(url);
  if (appEnv === 'production' && (parsed.protocol !== 'https:' || parsed.port !== '')) return HTTPS_ONLY_MESSAGE;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SAVE_RESOLUTION_TIMEOUT_MS);
  });
  try {
    const refusal = await Promise.race([hostRefusal(policy, parsed.hostname).catch(() => null), gaveUp]);
    return refusal && `The platform does not call addresses outside the public Internet: ${refusal}`;
  } finally {
    clearTimeout(timer);
  }
}
