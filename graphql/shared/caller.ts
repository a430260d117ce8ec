/** Who is calling: a provider's key (scoped to its provider and offerer) or an internal tool's key. */
export type Caller =
  | { kind: 'provider'; apiKeyId: number; apiKeyPrefix: string; providerId: number; offererId: number | null }
  | { kind: 'internal'; apiKeyId: number; apiKeyPrefix: string };

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
