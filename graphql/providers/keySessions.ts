import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import type { Caller } from '../shared/caller.js';
import { ForbiddenError } from '../shared/errors.js';
import {
  authenticateApiKey,
  type AuthenticatedCaller,
  callerOfKeyRow,
  datetimeOf,
  keyLookupColumns,
  type KeyLookupRow,
} from './apiKeys.js';
import { ApiKey } from './ApiKey.js';
import { KeySession } from './KeySession.js';

/** How long a session lasts, in the back office as in the console: a working day; then sign in again. */
export const KEY_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** Who signs in where: the platform's staff (back office) with internal keys, providers (console) with theirs. */
export type SessionAudience = 'staff' | 'console';

const REFUSALS: Record<SessionAudience, string> = {
  staff: 'Provider keys do not open the back office',
  console: "Internal keys do not open the console: sign in with one of the provider's keys",
};

export interface OpenedKeySession {
  /** The random token the browser holds (its cookie): never stored, only its hash. */
  token: string;
  expiresAt: Date;
  /** The session's row, and the key it was opened with: what the audit trail names. */
  sessionId: number;
  caller: Caller;
}

/** What is stored of a session's token (a key's, a person's): its SHA-256, never the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const isToken = (token: string) => /^[0-9a-f]{64}$/.test(token);

/** A new session token: 256 random bits, in hex. */
export const newSessionToken = () => randomBytes(32).toString('hex');

/**
 * Exchanges a key for a session. A key that is unknown or revoked is refused as on the API (401);
 * a key of the other audience is a 403: provider keys never open the back office, nor internal
 * keys a provider's console.
 */
export async function openKeySession(
  em: EntityManager,
  clock: Clock,
  rawKey: string,
  audience: SessionAudience,
): Promise<OpenedKeySession> {
  const now = clock.now();
  const { caller } = await authenticateApiKey(em, rawKey.trim(), { now });
  if (caller.kind === 'staff' || (caller.kind === 'internal') !== (audience === 'staff')) {
    throw new ForbiddenError(REFUSALS[audience]);
  }
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + KEY_SESSION_TTL_MS);
  const session = em.create(KeySession, {
    tokenHash: tokenHash(token),
    apiKey: em.getReference(ApiKey, caller.apiKeyId),
    createdAt: now,
    expiresAt,
    endedAt: null,
  });
  await em.flush();
  return { token, expiresAt, sessionId: session.id, caller };
}

const sessionLookupSql =
  `select s.expires_at, s.ended_at, k.prefix, ${keyLookupColumns} from staff_session s ` +
  'join api_key k on k.id = s.api_key_id left join provider p on p.id = k.provider_id where s.token_hash = ?';

interface SessionRow extends KeyLookupRow {
  expires_at: unknown;
  ended_at: unknown;
  prefix: string;
}

/**
 * The caller of a session token: the key it was opened with (and, for a provider key, its
 * provider as it is now), while the session is neither ended nor expired and the key not revoked
 * (revoking the key ends its sessions). An inactive provider's session is refused as its key is (403).
 */
export async function sessionCallerOf(
  em: EntityManager,
  token: string,
  now: Date,
): Promise<AuthenticatedCaller | null> {
  if (!isToken(token)) return null;
  const [row] = (await em.getConnection().execute(sessionLookupSql, [tokenHash(token)])) as SessionRow[];
  if (!row || row.ended_at != null || row.revoked_at != null) return null;
  const expiresAt = datetimeOf(row.expires_at);
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) return null;
  return callerOfKeyRow(row, row.prefix);
}

/** Signing out: the session ends now, whatever the browser keeps. Its id, when it had not ended already. */
export async function endKeySession(em: EntityManager, token: string, now: Date): Promise<number | null> {
  if (!isToken(token)) return null;
  const session = await em.findOne(KeySession, { tokenHash: tokenHash(token), endedAt: null });
  if (!session) return null;
  session.endedAt = now;
  await em.flush();
  return session.id;
}
