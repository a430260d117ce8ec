/*
 * The words of the audit trail, in a module without imports: the back office's screen (in the
 * browser) offers them as filters, and the server checks filters against the same lists.
 */

/** Every action of the platform's staff that the audit trail records, by its name in an entry. */
export const AUDIT_ACTIONS = [
  'offer.approved',
  'offer.rejected',
  'provider.activation_changed',
  'provider.offer_rights_changed',
  'api_key.issued',
  'api_key.revoked',
  'provider.messaging_secret_rotated',
  'message.retried',
  'job.retried',
  'job.discarded',
  'staff.signed_in',
  'staff.signed_out',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What an entry is about: `offer`, `collective_offer`, `provider`, `api_key`, `provider_message`, `job`,
 * `staff_session` (a break-glass key's session), `person_session` (a person's, through the identity provider).
 */
export const AUDIT_TARGET_TYPES = [
  'offer',
  'collective_offer',
  'provider',
  'api_key',
  'provider_message',
  'job',
  'staff_session',
  'person_session',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
