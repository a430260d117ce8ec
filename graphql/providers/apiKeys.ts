import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller, ProviderView } from '../shared/caller.js';
import type { Clock } from '../../platform/time/clock.js';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../shared/errors.js';
import { ApiKey } from './ApiKey.js';
import type { CallerCache } from './callerCache.js';
import type { Offerer } from './Offerer.js';
import type { Provider } from './Provider.js';

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
 * and entity hydration of a populated findOne (measured: about 4x slower here), and the
 * provider it reads comes back as a plain read-only view rather than a managed entity.
 */
export const keyLookupColumns =
  'k.id as key_id, k.secret_hash, k.offerer_id, k.is_internal, k.revoked_at, k.last_used_at, ' +
  'p.id as provider_id, p.name, p.booking_url, p.cancel_url, p.notification_url, p.logo_url, p.is_active, ' +
  'p.can_manage_individual_offers';

const keyLookupSql = `select ${keyLookupColumns} from api_key k left join provider p on p.id = k.provider_id where k.prefix = ?`;

export interface KeyLookupRow {
  key_id: number;
  secret_hash: string;
  offerer_id: number | null;
  is_internal: boolean | number;
  revoked_at: unknown;
  last_used_at: unknown;
  provider_id: number | null;
  name: string;
  booking_url: string | null;
  cancel_url: string | null;
  notification_url: string | null;
  logo_url: string | null;
  is_active: boolean | number;
  can_manage_individual_offers: boolean | number;
}

/** How stale a key's `lastUsedAt` may get: a write per key per minute, not one per request. */
export const LAST_USED_PRECISION_MS = 60_000;

/** A datetime as a driver answers it: a Date (PostgreSQL), or epoch milliseconds or text (SQLite). */
export function datetimeOf(value: unknown): Date | null {
  if (value == null) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value));
  return typeof value === 'string' ? new Date(value) : null;
}

/**
 * The row learns the new time too: it may be the one the caller cache keeps, which would
 * otherwise write on every request once its minute has passed. The write is not a change the
 * cache must hear of (callerChanges.ts watches flushes, not this update).
 */
async function noteKeyUse(em: EntityManager, row: KeyLookupRow, now: Date): Promise<void> {
  const last = datetimeOf(row.last_used_at);
  if (last && now.getTime() - last.getTime() < LAST_USED_PRECISION_MS) return;
  row.last_used_at = now;
  await em.nativeUpdate(ApiKey, { id: row.key_id }, { lastUsedAt: now });
}

/** Rows of the lookup kept between requests (callerCache.ts); the secret is checked on every request. */
export type KeyRowCache = CallerCache<KeyLookupRow>;

async function keyRow(
  em: EntityManager,
  prefix: string,
  cache: KeyRowCache | undefined,
): Promise<KeyLookupRow | undefined> {
  const generation = cache?.generation() ?? 0;
  const kept = cache?.get(prefix);
  if (kept) return kept;
  // In the caller's transaction when there is one (signing in): SQLite's one connection is its.
  const [row] = (await em
    .getConnection()
    .execute(keyLookupSql, [prefix], 'all', em.getTransactionContext())) as KeyLookupRow[];
  if (row && cache) cache.store(prefix, row, generation);
  return row;
}

export interface AuthenticatedCaller {
  caller: Caller;
  /** The provider of a provider key, as it was when the key was checked. */
  provider: ProviderView | null;
}

/**
 * Resolves a bearer key to its caller. Unknown, malformed and revoked keys are all
 * the same 401, so that an answer reveals nothing about which keys exist.
 */
export async function authenticateApiKey(
  em: EntityManager,
  rawKey: string | undefined,
  options: { cache?: KeyRowCache; now?: Date } = {},
): Promise<AuthenticatedCaller> {
  const parsed = rawKey ? parseApiKey(rawKey) : null;
  if (!parsed) throw new UnauthenticatedError();
  const row = await keyRow(em, parsed.prefix, options.cache);
  if (!row || !secretMatches(parsed.secret, row.secret_hash) || row.revoked_at != null) {
    throw new UnauthenticatedError();
  }
  await noteKeyUse(em, row, options.now ?? new Date());
  return callerOfKeyRow(row, parsed.prefix);
}

/**
 * The caller a key's row stands for, once the key is proved (by its secret, or by the session it
 * opened): an internal tool, or its provider as the row read it (403 while the provider is inactive).
 */
export function callerOfKeyRow(row: KeyLookupRow, prefix: string): AuthenticatedCaller {
  // SQLite answers booleans as 0 and 1.
  if (row.is_internal) {
    return { caller: { kind: 'internal', apiKeyId: row.key_id, apiKeyPrefix: prefix }, provider: null };
  }
  if (row.provider_id == null) throw new UnauthenticatedError();
  if (!row.is_active) throw new ForbiddenError('This provider is inactive');
  const provider: ProviderView = {
    id: row.provider_id,
    name: row.name,
    bookingUrl: row.booking_url,
    cancelUrl: row.cancel_url,
    notificationUrl: row.notification_url,
    logoUrl: row.logo_url,
    isActive: true,
    canManageIndividualOffers: row.can_manage_individual_offers == true,
  };
  return {
    caller: {
      kind: 'provider',
      apiKeyId: row.key_id,
      apiKeyPrefix: prefix,
      providerId: provider.id,
      offererId: row.offerer_id,
    },
    provider,
  };
}
