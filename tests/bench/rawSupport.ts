import type { Request, Response } from 'express';
import type { Platform } from '@mikro-orm/core';
import { parseApiKey, secretMatches } from '../../graphql/providers/apiKeys.js';
import type { DomainError } from '../../graphql/shared/errors.js';
import { answerForError } from '../../rest-facade/httpErrors.js';
import type { Runtime } from '../../server/runtime.js';

/** What the hand-written baselines share: the key check, the refusals, the values of raw rows. */

export type Row = Record<string, unknown>;

/** The runtime's connection, its answers typed: raw SQL text, rows as the driver gives them. */
export interface Connection {
  execute<T extends Row[]>(sql: string, params?: unknown[]): Promise<T>;
}

export function connectionOf(runtime: Runtime): Connection {
  return runtime.orm.em.getConnection();
}

const keySql = `select k.secret_hash, k.revoked_at, k.offerer_id, k.is_internal,
    p.id as provider_id, p.is_active, p.can_manage_individual_offers
  from api_key k left join provider p on p.id = k.provider_id where k.prefix = ?`;

export interface RawCaller {
  providerId: number;
  offererId: number | null;
  canManageIndividualOffers: boolean;
}

/** The bearer token as the facade reads it (server/http/authenticate.ts). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, token] = header.trim().split(/\s+/, 2);
  return scheme?.toLowerCase() === 'bearer' ? token : undefined;
}

/** A refusal answered as the facade answers a domain error: its status and body. */
export function refuse(res: Response, error: DomainError): void {
  const answer = answerForError(error)!;
  res.status(answer.status).json(answer.body);
}

/**
 * The request's key, checked as the facade checks it (apiKeys.ts), in one query: a known prefix,
 * its secret, not revoked, else 401; an inactive provider, 403. Provider keys only: an internal
 * key is refused with 403 here (the bench sends the sandbox's provider key). Answers a refusal
 * itself and returns null.
 */
export async function rawCallerOf(connection: Connection, req: Request, res: Response): Promise<RawCaller | null> {
  const token = bearerToken(req.get('authorization'));
  const parsed = token ? parseApiKey(token) : null;
  const [key] = parsed ? await connection.execute<Row[]>(keySql, [parsed.prefix]) : [];
  if (!parsed || !key || !secretMatches(parsed.secret, String(key.secret_hash)) || key.revoked_at != null) {
    res.status(401).json({ auth: 'API key required' });
    return null;
  }
  if (key.is_internal) {
    res.status(403).json({ global: ['The hand-written baseline serves provider keys only'] });
    return null;
  }
  if (key.provider_id == null) {
    res.status(401).json({ auth: 'API key required' });
    return null;
  }
  if (!key.is_active) {
    res.status(403).json({ global: ['This provider is inactive'] });
    return null;
  }
  return {
    providerId: Number(key.provider_id),
    offererId: key.offerer_id == null ? null : Number(key.offerer_id),
    canManageIndividualOffers: Boolean(key.can_manage_individual_offers),
  };
}

/** Individual offers' routes also refuse a provider that may not manage them (offers/access.ts). */
export function refusesIndividualOffers(caller: RawCaller, res: Response): boolean {
  if (caller.canManageIndividualOffers) return false;
  res.status(403).json({ global: ['Your provider is not allowed to manage individual offers'] });
  return true;
}

export interface RowValues {
  /** Dates of raw rows: Date objects, epoch milliseconds (libSQL) or the text PostgreSQL sends. */
  date(value: unknown): Date;
  dateOrNull(value: unknown): Date | null;
  iso(value: unknown): string | null;
}

export function rowValues(platform: Platform): RowValues {
  const date = (value: unknown): Date => {
    if (value instanceof Date) return value;
    if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value));
    return platform.parseDate(value as string);
  };
  const dateOrNull = (value: unknown) => (value == null ? null : date(value));
  return { date, dateOrNull, iso: (value) => dateOrNull(value)?.toISOString() ?? null };
}

/** SQLite answers booleans as 0 and 1. */
export const flag = (value: unknown): boolean => Boolean(value);

/** A nullable boolean column: SQLite's 0 and 1, PostgreSQL's booleans, or null. */
export const flagOrNull = (value: unknown): boolean | null => (value == null ? null : Boolean(value));

/** A JSON column: text on SQLite, parsed already on PostgreSQL. */
export function jsonColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** `?, ?, ?` for a list of values. */
export const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');
