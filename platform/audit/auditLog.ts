import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { AuditEntry } from './AuditEntry.js';

/**
 * Who acted: a machine (an internal key, by its id and public prefix) or a person (subject and
 * e-mail from the identity provider). Both shapes are kept in the same columns, so that entries
 * written before people signed in read alike with theirs.
 */
export type AuditActor =
  | { kind: 'api_key'; keyId: number; keyPrefix: string }
  | { kind: 'person'; subject: string; email: string | null; keyId?: number; keyPrefix?: string };

/** Values an action changed: plain data, never a secret (the caller picks which fields to show). */
export type AuditValues = Record<string, string | number | boolean | null>;

export interface NewAuditEntry {
  actor: AuditActor;
  at: Date;
  action: string;
  target: { type: string; id: string | number };
  before?: AuditValues | null;
  after?: AuditValues | null;
  requestId?: string | null;
}

/** An absent value (an argument left out) reads as null, not as a field that was never there. */
const jsonOrNull = (values: AuditValues | null | undefined) =>
  values ? JSON.stringify(values, (_key, value: unknown) => (value === undefined ? null : value)) : null;

/**
 * Writes one entry at once, on `em`'s connection: inside the action's transaction, the entry
 * commits or rolls back with the action. A native insert, since the ORM's flush ignores this
 * read-only entity (and so has no path to change one).
 */
export async function appendAuditEntry(em: EntityManager, entry: NewAuditEntry): Promise<void> {
  const { actor } = entry;
  await em.insert(AuditEntry, {
    createdAt: entry.at,
    actorKind: actor.kind,
    actorKeyId: actor.keyId ?? null,
    actorKeyPrefix: actor.keyPrefix ?? null,
    actorSubject: actor.kind === 'person' ? actor.subject : null,
    actorEmail: actor.kind === 'person' ? actor.email : null,
    action: entry.action,
    targetType: entry.target.type,
    targetId: String(entry.target.id),
    beforeValues: jsonOrNull(entry.before),
    afterValues: jsonOrNull(entry.after),
    requestId: entry.requestId ?? null,
  });
}

/** Entries that match every field given. */
export interface AuditFilter {
  /** A key's prefix, a person's subject or e-mail. */
  actor?: string | null;
  action?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  /** Written at or after. */
  from?: Date | null;
  /** Written before. */
  to?: Date | null;
}

export interface AuditPage {
  /** Entries written before this id (the last of the page before); the newest without it. */
  before?: number | null;
  limit: number;
}

/** One page of the entries that match, newest first (in the order they were written). */
export function findAuditEntries(em: EntityManager, filter: AuditFilter, page: AuditPage): Promise<AuditEntry[]> {
  const conditions: FilterQuery<AuditEntry>[] = [];
  if (page.before != null) conditions.push({ id: { $lt: page.before } });
  if (filter.actor)
    conditions.push({
      $or: [{ actorKeyPrefix: filter.actor }, { actorSubject: filter.actor }, { actorEmail: filter.actor }],
    });
  if (filter.action) conditions.push({ action: filter.action });
  if (filter.targetType) conditions.push({ targetType: filter.targetType });
  if (filter.targetId) conditions.push({ targetId: filter.targetId });
  if (filter.from) conditions.push({ createdAt: { $gte: filter.from } });
  if (filter.to) conditions.push({ createdAt: { $lt: filter.to } });
  return em.find(AuditEntry, { $and: conditions }, { orderBy: { id: 'desc' }, limit: page.limit });
}

/** Every entry that matches, newest first, read a page at a time (an export of months stays in bounded memory). */
export async function* allAuditEntries(
  em: EntityManager,
  filter: AuditFilter,
  pageSize = 500,
): AsyncGenerator<AuditEntry[]> {
  let before: number | null = null;
  for (;;) {
    const page = await findAuditEntries(em, filter, { before, limit: pageSize });
    if (page.length === 0) return;
    yield page;
    // Entries read are of no further use to this unit of work: the identity map stays small.
    em.clear();
    if (page.length < pageSize) return;
    before = page[page.length - 1].id;
  }
}
