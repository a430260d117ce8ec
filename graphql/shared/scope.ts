import type { Caller } from './caller.js';

/**
 * The filter that keeps a provider key on its own rows (internal keys see all).
 * Rows owned by another provider are then simply not found.
 */
export function ownedByCaller(caller: Caller): { provider?: number } {
  return caller.kind === 'provider' ? { provider: caller.providerId } : {};
}
