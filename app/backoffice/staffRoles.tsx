import { createContext, useContext } from 'react';
import { isStaffRole, rolesAllow, type StaffRole } from '../../graphql/shared/staffRoles.js';

/** The roles of who is signed in, for the screens to hide what the server would refuse them. */
export const StaffRolesContext = createContext<readonly StaffRole[]>([]);

/** Whether who is signed in holds `role` (or admin): the same rule as the server's. */
export function useAllowed(role: StaffRole): boolean {
  return rolesAllow(useContext(StaffRolesContext), role);
}

/** The roles the server wrote in `data-roles`, space-separated. */
export function rolesOfAttribute(value: string | undefined): StaffRole[] {
  return (value ?? '').split(' ').filter(isStaffRole);
}
