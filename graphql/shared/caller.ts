/** Who is calling: a provider's key (scoped to its provider and offerer) or an internal tool's key. */
export type Caller =
  | { kind: 'provider'; apiKeyId: number; apiKeyPrefix: string; providerId: number; offererId: number | null }
  | { kind: 'internal'; apiKeyId: number; apiKeyPrefix: string };

export function isProvider(caller: Caller): caller is Extract<Caller, { kind: 'provider' }> {
  return caller.kind === 'provider';
}
