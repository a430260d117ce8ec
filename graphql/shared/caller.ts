import type { StaffRole } from './staffRoles.js';

/**
 * Who is calling: a provider's key (scoped to its provider and offerer), an internal tool's key (a
 * machine: scripts, monitoring, or a break-glass sign-in), or a member of staff signed in with the
 * organisation's identity provider, known by the subject and e-mail its ID token gave, with roles.
 */
export type Caller =
  | { kind: 'provider'; apiKeyId: number; apiKeyPrefix: string; providerId: number; offererId: number | null }
  | { kind: 'internal'; apiKeyId: number; apiKeyPrefix: string }
  | { kind: 'staff'; sessionId: number; subject: string; email: string; roles: readonly StaffRole[] };

/** The platform's own callers (a machine's key or a person of the staff), who reach every provider's data. */
export function isPlatformCaller(caller: Caller): caller is Exclude<Caller, { kind: 'provider' }> {
  return caller.kind !== 'provider';
}

/**
 * The name a caller's rate-limit budget is counted under: a key's prefix, or the person (all of
 * their sessions share one budget, as all requests of a key do).
 */
export function budgetNameOf(caller: Caller): string {
  return caller.kind === 'staff' ? `staff:${caller.subject}` : caller.apiKeyPrefix;
}

/**
 * What a request may read of its provider without loading it: read with the key, as it was
 * then (the Provider entity of graphql/providers has these fields); load the entity to change it.
 */
export interface ProviderView {
  readonly id: number;
  readonly name: string;
  readonly bookingUrl: string | null;
  readonly cancelUrl: string | null;
  readonly notificationUrl: string | null;
  readonly logoUrl: string | null;
  readonly isActive: boolean;
  readonly canManageIndividualOffers: boolean;
}

export function isProvider(caller: Caller): caller is Extract<Caller, { kind: 'provider' }> {
  return caller.kind === 'provider';
}
