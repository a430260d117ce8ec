import type { ShellArea } from '../backoffice/Shell.js';

/** The console's screens, by path; their content comes with the screens themselves (issue 36). */
export type ConsoleScreen = { name: 'requests' } | { name: 'messages' } | { name: 'test-events' } | { name: 'keys' };

export const CONSOLE_PATH = '/console';

export const CONSOLE_NAVIGATION = [
  { href: `${CONSOLE_PATH}/requests`, label: 'Requests', screen: 'requests' },
  { href: `${CONSOLE_PATH}/messages`, label: 'Messages', screen: 'messages' },
  { href: `${CONSOLE_PATH}/test-events`, label: 'Test events', screen: 'test-events' },
  { href: `${CONSOLE_PATH}/keys`, label: 'Keys', screen: 'keys' },
] as const;

/** The first screen, where `/console` and a sign-in without a destination lead. */
export const CONSOLE_HOME = CONSOLE_NAVIGATION[0].href;

export function consoleScreenOf(pathname: string): ConsoleScreen | null {
  const path = pathname.replace(/\/+$/, '');
  const item = CONSOLE_NAVIGATION.find((candidate) => candidate.href === path);
  return item ? { name: item.screen } : null;
}

export function consoleTitleOf(screen: ConsoleScreen): string {
  return CONSOLE_NAVIGATION.find((item) => item.screen === screen.name)?.label ?? 'Console';
}

export function consoleArea(signedInAs: string | undefined): ShellArea {
  return { brand: 'Console', navigation: CONSOLE_NAVIGATION, signOut: `${CONSOLE_PATH}/sign-out`, signedInAs };
}
