import type { EntityManager } from '@mikro-orm/core';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../shared/audit.js';
import { awareDateTime } from '../../shared/fieldRules.js';
import { z } from '../../shared/zod.js';
import {
  allAuditEntries,
  type AuditEntry,
  type AuditFilter,
  type AuditPage,
  findAuditEntries,
} from '../../../platform/audit/index.js';
import { ApiKey } from '../ApiKey.js';

/** An entry as the back office reads it: with the label of the key that acted, as the key says it now. */
export interface AuditEntryRow {
  entry: AuditEntry;
  actorLabel: string | null;
}

/** The longest actor a filter may name: an e-mail address (RFC 5321's 320 characters). */
export const AUDIT_ACTOR_MAX_LENGTH = 320;
export const AUDIT_TARGET_ID_MAX_LENGTH = 64;

const filterFields = {
  actor: z.string().trim().min(1).max(AUDIT_ACTOR_MAX_LENGTH),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.string().trim().min(1).max(AUDIT_TARGET_ID_MAX_LENGTH),
};

/** The rule of the graph's filter (its dates are read by the DateTime scalar). */
export const auditFilterRule = z.object({
  actor: filterFields.actor.nullish(),
  action: filterFields.action.nullish(),
  targetType: filterFields.targetType.nullish(),
  targetId: filterFields.targetId.nullish(),
});

/** The same filter in a query string (the CSV export): every field text, the period as ISO datetimes. */
export const auditFilterQueryRule = z
  .object({
    actor: filterFields.actor.optional(),
    action: filterFields.action.optional(),
    targetType: filterFields.targetType.optional(),
    targetId: filterFields.targetId.optional(),
    from: awareDateTime.optional(),
    to: awareDateTime.optional(),
  })
  .strict();

async function withLabels(em: EntityManager, entries: AuditEntry[]): Promise<AuditEntryRow[]> {
  const keyIds = [...new Set(entries.flatMap((entry) => entry.actorKeyId ?? []))];
  const keys = keyIds.length > 0 ? await em.find(ApiKey, { id: { $in: keyIds } }, { fields: ['label'] }) : [];
  const labels = new Map(keys.map((key) => [key.id, key.label]));
  return entries.map((entry) => ({
    entry,
    actorLabel: entry.actorKeyId != null ? (labels.get(entry.actorKeyId) ?? null) : null,
  }));
}

/** One page of the entries that match, newest first. */
export async function listAuditEntries(
  em: EntityManager,
  filter: AuditFilter,
  page: AuditPage,
): Promise<AuditEntryRow[]> {
  return withLabels(em, await findAuditEntries(em, filter, page));
}

/** Every entry that matches, newest first, a page at a time. */
export async function* exportAuditEntries(em: EntityManager, filter: AuditFilter): AsyncGenerator<AuditEntryRow[]> {
  for await (const entries of allAuditEntries(em, filter)) yield withLabels(em, entries);
}
