import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../shared/errors.js';
import { ApiKey } from './ApiKey.js';
import type { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';

/** `{env}_{12 hex}_{64 hex}`: the prefix finds the row, the 256-bit secret proves the holder. */
const apiKeyPattern = /^([a-z]{2,20})_([0-9a-f]{12})_([0-9a-f]{64})$/;

export interface ParsedApiKey {
  prefix: string;
  secret: string;
}

export function parseApiKey(rawKey: string): ParsedApiKey | null {
  const match = apiKeyPattern.exec(rawKey);
  if (!match) return null;
  return { prefix: `${match[1]}_${match[2]}`, secret: match[3] };
}

/**
 * SHA-256 is enough: the secret has 256 random bits, so it cannot be guessed, and a slow
 * password hash would cap the throughput of every request.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export interface IssueApiKeyInput {
  env: string;
  provider?: Provider | null;
  offerer?: Offerer | null;
  internal?: boolean;
  label?: string | null;
}

export interface IssuedApiKey {
  /** The clear key: shown once, never stored. */
  key: string;
  apiKey: ApiKey;
}

export function issueApiKey(em: EntityManager, clock: Clock, input: IssueApiKeyInput): IssuedApiKey {
  const internal = input.internal ?? false;
  if (!internal && !input.provider) throw new Error('A provider key needs a provider');
  const env = input.env.replace(/[^a-z]/g, '').slice(0, 20) || 'dev';
  const prefix = `${env}_${randomBytes(6).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const apiKey = em.create(ApiKey, {
    prefix,
    secretHash: hashSecret(secret),
    provider: internal ? null : input.provider,
    offerer: internal ? null : (input.offerer ?? null),
    isInternal: internal,
    label: input.label ?? null,
    createdAt: clock.now(),
    revokedAt: null,
  });
  em.persist(apiKey);
  return { key: `${prefix}_${secret}`, apiKey };
}

export async function revokeApiKey(em: EntityManager, clock: Clock, prefix: string): Promise<ApiKey> {
  const apiKey = await em.findOne(ApiKey, { prefix });
  if (!apiKey) throw new NotFoundError(`No API key with prefix ${prefix}`);
  if (!apiKey.revokedAt) apiKey.revokedAt = clock.now();
  await em.flush();
  return apiKey;
}

/**
 * Every request runs this, so it is one fixed query rather than the ORM's query building
 * and entity hydration of a populated findOne (measured: about 4x slower here). The
 * provider row is then handed to the entity manager, so the operation finds it loaded.
 */
const keyLookupSql =
  'select k.id as key_id, k.secret_hash as key_secret_hash, k.offerer_id as key_offerer_id, ' +
  'k.is_internal as key_is_internal, k.revoked_at as key_revoked_at, p.* ' +
  'from api_key k left join provider p on p.id = k.provider_id where k.prefix = ?';

interface KeyLookupRow extends Record<string, unknown> {
  key_id: number;
  key_secret_hash: string;
  key_offerer_id: number | null;
  key_is_internal: boolean | number;
  key_revoked_at: unknown;
  id: number | null;
}

export interface AuthenticatedCaller {
  caller: Caller;
  /** The provider of a provider key, already in the entity manager's identity map. */
  provider: Provider | null;
}

/**
 * Resolves a bearer key to its caller. Unknown, malformed and revoked keys are all
 * the same 401, so that an answer reveals nothing about which keys exist.
 */
export async function authenticateApiKey(em: EntityManager, rawKey: string | undefined): Promise<AuthenticatedCaller> {
  const parsed = rawKey ? parseApiKey(rawKey) : null;
  if (!parsed) throw new UnauthenticatedError();
  const [row] = await em.getConnection().execute<KeyLookupRow[]>(keyLookupSql, [parsed.prefix]);
  if (!row || !secretMatches(parsed.secret, row.key_secret_hash) || row.key_revoked_at != null) {
    throw new UnauthenticatedError();
  }
  if (Boolean(row.key_is_internal)) {
    return { caller: { kind: 'internal', apiKeyId: row.key_id, apiKeyPrefix: parsed.prefix }, provider: null };
  }
  if (row.id == null) throw new UnauthenticatedError();
  const providerColumns = Object.fromEntries(Object.entries(row).filter(([column]) => !column.startsWith('key_')));
  const provider = em.map(Provider, providerColumns);
  if (!provider.isActive) throw new ForbiddenError('This provider is inactive');
  return {
    caller: {
      kind: 'provider',
      apiKeyId: row.key_id,
      apiKeyPrefix: parsed.prefix,
      providerId: provider.id,
      offererId: row.key_offerer_id,
    },
    provider,
  };
}
