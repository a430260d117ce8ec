import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../../platform/time/clock.js';
import { ForbiddenError } from '../shared/errors.js';
import { authenticateApiKey, datetimeOf } from './apiKeys.js';
import { ApiKey } from './ApiKey.js';
import { StaffSession } from './StaffSession.js';

/** How long a back-office session lasts: a working day; then staff sign in again. */
export const STAFF_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export interface OpenedStaffSession {
  /** The random token the browser holds (its cookie): never stored, only its hash. */
  token: string;
  expiresAt: Date;
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Exchanges an internal key for a session. A key that is unknown or revoked is refused as on the
 * API (401); a provider key is a 403: provider keys never open the back office.
 */
export async function openStaffSession(em: EntityManager, clock: Clock, rawKey: string): Promise<OpenedStaffSession> {
  const now = clock.now();
  const { caller } = await authenticateApiKey(em, rawKey.trim(), { now });
  if (caller.kind !== 'internal') throw new ForbiddenError('Provider keys do not open the back office');
  const token = randomBytes(32).toString('hex');
  const expiresAt = new Date(now.getTime() + STAFF_SESSION_TTL_MS);
  em.create(StaffSession, {
    tokenHash: tokenHash(token),
    apiKey: em.getReference(ApiKey, caller.apiKeyId),
    createdAt: now,
    expiresAt,
    endedAt: null,
  });
  await em.flush();
  return { token, expiresAt };
}

const sessionLookupSql =
  'select s.expires_at, s.ended_at, k.id as key_id, k.prefix, k.is_internal, k.revoked_at ' +
  'from staff_session s join api_key k on k.id = s.api_key_id where s.token_hash = ?';

interface SessionRow {
  expires_at: unknown;
  ended_at: unknown;
  key_id: number;
  prefix: string;
  is_internal: boolean | number;
  revoked_at: unknown;
}

/**
 * The caller of a session token: the internal key it was opened with, while the session is
 * neither ended nor expired and the key not revoked (revoking the key ends its sessions).
 */
export async function staffCallerOf(em: EntityManager, token: string, now: Date): Promise<Caller | null> {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const [row] = (await em.getConnection().execute(sessionLookupSql, [tokenHash(token)])) as SessionRow[];
  if (!row || row.ended_at != null || row.revoked_at != null || !row.is_internal) return null;
  const expiresAt = datetimeOf(row.expires_at);
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) return null;
  return { kind: 'internal', apiKeyId: row.key_id, apiKeyPrefix: row.prefix };
}

/** Signing out: the session ends now, whatever the browser keeps. */
export async function endStaffSession(em: EntityManager, token: string, now: Date): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(token)) return;
  await em.nativeUpdate(StaffSession, { tokenHash: tokenHash(token), endedAt: null }, { endedAt: now });
}
