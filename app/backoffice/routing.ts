import { rolesAllow, type StaffRole } from '../../graphql/shared/staffRoles.js';

/** The back office's screens, by path: the server checks a path before rendering it, the browser routes with it. */
export type Screen =
  | { name: 'review' }
  | { name: 'providers' }
  | { name: 'provider'; id: number }
  | { name: 'messages' }
  | { name: 'requests' }
  | { name: 'request'; requestId: string }
  | { name: 'jobs' }
  | { name: 'audit' };

export const BACK_OFFICE_PATH = '/backoffice';

/** A request id in a path: what X-Request-Id carried (server/http/requestId.ts takes no other). */
export const REQUEST_ID_SEGMENT = '([A-Za-z0-9._-]{1,64})';

export function screenOf(pathname: string): Screen | null {
  const path = pathname.replace(/\/+$/, '');
  if (path === BACK_OFFICE_PATH) return { name: 'review' };
  if (path === `${BACK_OFFICE_PATH}/providers`) return { name: 'providers' };
  if (path === `${BACK_OFFICE_PATH}/messages`) return { name: 'messages' };
  if (path === `${BACK_OFFICE_PATH}/jobs`) return { name: 'jobs' };
  if (path === `${BACK_OFFICE_PATH}/requests`) return { name: 'requests' };
  if (path === `${BACK_OFFICE_PATH}/audit`) return { name: 'audit' };
  const request = new RegExp(`^${BACK_OFFICE_PATH}/requests/${REQUEST_ID_SEGMENT}$`).exec(path);
  if (request) return { name: 'request', requestId: request[1] };
  const provider = /^\/backoffice\/providers\/([1-9]\d{0,9})$/.exec(path);
  return provider ? { name: 'provider', id: Number(provider[1]) } : null;
}

export const NAVIGATION = [
  { href: BACK_OFFICE_PATH, label: 'Review queue', screen: 'review' },
  { href: `${BACK_OFFICE_PATH}/providers`, label: 'Providers', screen: 'providers' },
  { href: `${BACK_OFFICE_PATH}/messages`, label: 'Messages', screen: 'messages' },
  { href: `${BACK_OFFICE_PATH}/requests`, label: 'Requests', screen: 'requests' },
  { href: `${BACK_OFFICE_PATH}/jobs`, label: 'Jobs', screen: 'jobs' },
  { href: `${BACK_OFFICE_PATH}/audit`, label: 'Audit trail', screen: 'audit' },
] as const;

/** The role each screen needs (or admin), as the operations it calls on /graphql do (decision 031). */
const SCREEN_ROLES: Record<Screen['name'], StaffRole> = {
  review: 'reviewer',
  providers: 'support',
  provider: 'support',
  messages: 'support',
  requests: 'support',
  request: 'support',
  jobs: 'support',
  audit: 'admin',
};

export function screenAllowed(screen: Screen, roles: readonly StaffRole[]): boolean {
  return rolesAllow(roles, SCREEN_ROLES[screen.name]);
}

/** The navigation of someone with these roles: the screens they may use. */
export function navigationFor(roles: readonly StaffRole[]) {
  return NAVIGATION.filter((item) => screenAllowed(screenOf(item.href)!, roles));
}

export function titleOf(screen: Screen): string {
  switch (screen.name) {
    case 'review':
      return 'Review queue';
    case 'providers':
      return 'Providers';
    case 'provider':
      return `Provider ${screen.id}`;
    case 'messages':
      return 'Messages';
    case 'requests':
      return 'Requests';
    case 'request':
      return `Request ${screen.requestId}`;
    case 'jobs':
      return 'Jobs';
    case 'audit':
      return 'Audit trail';
  }
}
