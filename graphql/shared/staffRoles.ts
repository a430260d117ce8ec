/**
 * What a member of the platform's staff may do in the back office (decision 031): **reviewer** the
 * review queue; **support** providers, keys, messages, jobs and requests (read, retry, issue and
 * revoke keys); **admin** everything, rights and activation and secret rotation included.
 * Pure, so that the back office's screens hide what the server would refuse by the same rule.
 */
export const staffRoles = ['reviewer', 'support', 'admin'] as const;
export type StaffRole = (typeof staffRoles)[number];

export function isStaffRole(value: string): value is StaffRole {
  return (staffRoles as readonly string[]).includes(value);
}

/** Whether roles allow what needs `role`: that role itself, or admin, who may do everything. */
export function rolesAllow(roles: readonly StaffRole[], role: StaffRole): boolean {
  return roles.includes(role) || roles.includes('admin');
}
