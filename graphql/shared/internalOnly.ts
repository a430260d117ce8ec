import type { Caller } from './caller.js';
import { ForbiddenError } from './errors.js';
import { rolesAllow, type StaffRole } from './staffRoles.js';

/**
 * The roles a caller holds: a person's, as the identity provider gave them at sign-in; an internal
 * key's, admin (a machine's key, or the break-glass sign-in, is trusted with everything, as it was
 * before roles); a provider key's, none.
 */
export function rolesOf(caller: Caller): readonly StaffRole[] {
  if (caller.kind === 'staff') return caller.roles;
  return caller.kind === 'internal' ? ['admin'] : [];
}

/**
 * The operations of the platform's own staff (the back office, internal tools): a provider key
 * gets 403 on them, whatever it names, since they reach every provider; a member of staff gets
 * 403 without the role the operation needs (or admin).
 */
export function requireRole(caller: Caller, role: StaffRole, what: string): void {
  if (caller.kind === 'provider') throw new ForbiddenError(`Only internal tools ${what}`);
  if (!rolesAllow(rolesOf(caller), role)) throw new ForbiddenError(`Only the ${role} role may ${what}`);
}
