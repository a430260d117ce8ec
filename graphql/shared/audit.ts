import type { EntityManager } from '@mikro-orm/core';
import { appendAuditEntry, type AuditActor, type AuditValues } from '../../platform/audit/index.js';
import type { Caller } from './caller.js';
import type { GraphContext } from './context.js';
import type { AuditAction, AuditTargetType } from './auditVocabulary.js';

export { AUDIT_ACTIONS, type AuditAction, AUDIT_TARGET_TYPES, type AuditTargetType } from './auditVocabulary.js';

/**
 * Who an entry names for the caller of a staff action: a person signed in with the organisation's
 * identity provider, by the subject and e-mail it gave; an internal key (a machine, or break-glass
 * sign-in, decision 031) by its prefix.
 */
export function auditActor(caller: Caller): AuditActor {
  if (caller.kind === 'provider') throw new Error('A provider key takes no staff action');
  if (caller.kind === 'staff') return { kind: 'person', subject: caller.subject, email: caller.email };
  return { kind: 'api_key', keyId: caller.apiKeyId, keyPrefix: caller.apiKeyPrefix };
}

/** What a staff action's entry needs of its request: who, when (its clock), and its id. */
export type AuditContext = Pick<GraphContext, 'caller' | 'clock' | 'requestId'>;

export interface StaffActionFacts {
  action: AuditAction;
  target: { type: AuditTargetType; id: string | number };
  /** Values the action changed: plain fields, never a secret. */
  before?: AuditValues | null;
  after?: AuditValues | null;
}

/**
 * Records a staff action on `em`, which must be the action's transaction: the entry commits with
 * the action or not at all.
 */
export function recordStaffAction(em: EntityManager, context: AuditContext, facts: StaffActionFacts): Promise<void> {
  return appendAuditEntry(em, {
    actor: auditActor(context.caller),
    at: context.clock.now(),
    action: facts.action,
    target: facts.target,
    before: facts.before,
    after: facts.after,
    requestId: context.requestId ?? null,
  });
}
