import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Clock } from '../../../platform/time/clock.js';
import { type Caller, isProvider } from '../../shared/caller.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../shared/errors.js';
import { ApiKey } from '../ApiKey.js';
import { type IssuedApiKey, issueApiKey } from '../apiKeys.js';
import { Offerer } from '../Offerer.js';
import { Provider } from '../Provider.js';

type ProviderCaller = Extract<Caller, { kind: 'provider' }>;

/** A provider's own keys are its business: internal tools have the back office's operations instead. */
export function requireProviderCaller(caller: Caller): ProviderCaller {
  if (!isProvider(caller)) throw new ForbiddenError("Only a provider's key or console session manages its own keys");
  return caller;
}

/**
 * The keys a caller may see and revoke: its provider's; for a key limited to one offerer, that
 * offerer's only, so that such a key can neither reach nor outlive the provider's wider keys.
 */
function keysInScope(caller: ProviderCaller): FilterQuery<ApiKey> {
  return caller.offererId == null
    ? { provider: caller.providerId, isInternal: false }
    : { provider: caller.providerId, offerer: caller.offererId, isInternal: false };
}

export function listMyApiKeys(em: EntityManager, caller: Caller): Promise<ApiKey[]> {
  return em.find(ApiKey, keysInScope(requireProviderCaller(caller)), { orderBy: { id: 'asc' } });
}

/** A new key of the caller's provider, limited to the caller's offerer when the caller is. */
export async function issueMyApiKey(
  em: EntityManager,
  clock: Clock,
  caller: Caller,
  input: { env: string; label: string | null },
): Promise<IssuedApiKey> {
  const own = requireProviderCaller(caller);
  const issued = issueApiKey(em, clock, {
    env: input.env,
    provider: em.getReference(Provider, own.providerId),
    offerer: own.offererId == null ? null : em.getReference(Offerer, own.offererId),
    label: input.label,
  });
  await em.flush();
  return issued;
}

/**
 * Revokes one of the caller's keys, named by its prefix or its id: from then on it gets 401, and
 * the console sessions it opened end (the session's lookup reads the key's revocation). Another
 * provider's key is not found, as if it did not exist.
 */
export async function revokeMyApiKey(
  em: EntityManager,
  clock: Clock,
  caller: Caller,
  which: { prefix?: string | null; id?: number | null },
): Promise<ApiKey> {
  const scope = keysInScope(requireProviderCaller(caller));
  if ((which.prefix == null) === (which.id == null)) {
    throw BadRequestError.on('prefix', 'Name the key by its prefix or by its id (one of them)');
  }
  const named = which.prefix != null ? { prefix: which.prefix } : { id: which.id! };
  const apiKey = await em.findOne(ApiKey, { $and: [scope, named] });
  if (!apiKey) throw new NotFoundError('API key not found');
  if (apiKey.revokedAt) throw BadRequestError.on(which.prefix != null ? 'prefix' : 'id', 'This key is revoked already');
  apiKey.revokedAt = clock.now();
  await em.flush();
  return apiKey;
}
