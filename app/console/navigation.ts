import { REQUEST_ID_SEGMENT } from '../backoffice/routing.js';
import type { ShellArea } from '../backoffice/Shell.js';

/** The console's screens, by path: the server checks a path before rendering it, the browser routes with it. */
export type ConsoleScreen =
  | { name: 'requests' }
  | { name: 'request'; requestId: string }
  | { name: 'messages' }
  | { name: 'test-events' }
  | { name: 'keys' };

export const CONSOLE_PATH = '/console';
export const CONSOLE_REQUESTS_PATH = `${CONSOLE_PATH}/requests`;

export const CONSOLE_NAVIGATION = [
  { href: CONSOLE_REQUESTS_PATH, label: 'Requests', screen: 'requests' },
  { href: `${CONSOLE_PATH}/messages`, label: 'Messages', screen: 'messages' },
  { href: `${CONSOLE_PATH}/test-events`, label: 'Test events', screen: 'test-events' },
  { href: `${CONSOLE_PATH}/keys`, label: 'Keys', screen: 'keys' },
] as const;

/** The first screen, where `/console` and a sign-in without a destination lead. */
export const CONSOLE_HOME = CONSOLE_NAVIGATION[0].href;

export function consoleScreenOf(pathname: string): ConsoleScreen | null {
  const path = pathname.replace(/\/+$/, '');
  const item = CONSOLE_NAVIGATION.find((candidate) => candidate.href === path);
  if (item) return { name: item.screen };
  const request = new RegExp(`^${CONSOLE_REQUESTS_PATH}/${REQUEST_ID_SEGMENT}$`).exec(path);
  return request ? { name: 'request', requestId: request[1] } : null;
}

export function consoleTitleOf(screen: ConsoleScreen): string {
  if (screen.name === 'request') return `Request ${screen.requestId}`;
  return CONSOLE_NAVIGATION.find((item) => item.screen === screen.name)?.label ?? 'Console';
}

export function consoleArea(signedInAs: string | undefined): ShellArea {
  return { brand: 'Console', navigation: CONSOLE_NAVIGATION, signOut: `${CONSOLE_PATH}/sign-out`, signedInAs };
}
