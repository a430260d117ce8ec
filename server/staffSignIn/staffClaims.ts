import type { StaffPerson } from '../../graphql/providers/personSessions.js';
import { isStaffRole, type StaffRole, staffRoles } from '../../graphql/shared/staffRoles.js';
import type { OidcConfig } from '../config.js';

/** Why a person the identity provider signed in does not get a back-office session. */
export type StaffRefusal =
  | { refused: 'no-email' }
  | { refused: 'unverified-email'; email: string }
  | { refused: 'domain'; email: string }
  | { refused: 'no-role'; email: string };

export type StaffClaimsResult = { ok: true; person: StaffPerson } | ({ ok: false } & StaffRefusal);

/** A claim's values: a list, or one string of space- or comma-separated values (as some IdPs give groups). */
function valuesOf(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return typeof claim === 'string' ? claim.split(/[\s,]+/).filter(Boolean) : [];
}

/**
 * The roles the configuration gives a person: each value of the roles claim that names a role,
 * and what OIDC_ROLE_MAP gives those values (groups) and the person's e-mail address.
 */
export function rolesOfClaims(claims: Record<string, unknown>, email: string, config: OidcConfig): StaffRole[] {
  const values = config.rolesClaim ? valuesOf(claims[config.rolesClaim]) : [];
  const granted = new Set<StaffRole>();
  for (const value of values) if (isStaffRole(value)) granted.add(value);
  for (const name of [...values.map((value) => value.toLowerCase()), email.toLowerCase()]) {
    for (const role of config.roleMap[name] ?? []) granted.add(role);
  }
  return staffRoles.filter((role) => granted.has(role));
}

/**
 * Who signed in, from the claims of their ID token (and user info): a person of the allowed
 * e-mail domains, with a verified address and at least one role, or why not.
 */
export function staffPersonOf(claims: Record<string, unknown>, config: OidcConfig): StaffClaimsResult {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || typeof claims.sub !== 'string') return { ok: false, refused: 'no-email' };
  // An IdP that says the address is unverified is believed; one that says nothing vouches for its own directory.
  if (claims.email_verified === false || claims.email_verified === 'false') {
    return { ok: false, refused: 'unverified-email', email };
  }
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (config.allowedEmailDomains.length > 0 && !config.allowedEmailDomains.includes(domain)) {
    return { ok: false, refused: 'domain', email };
  }
  const roles = rolesOfClaims(claims, email, config);
  if (roles.length === 0) return { ok: false, refused: 'no-role', email };
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null;
  return { ok: true, person: { subject: claims.sub, email, name, roles } };
}
