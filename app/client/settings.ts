/**
 * The chrome's small behaviours: dropdowns that close on Escape or a click elsewhere, the docs
 * version kept in local storage, and the colour mode when the site renders its control.
 */

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode, policies): the defaults apply
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // the choice lasts for this page only
  }
}

function closeDropdowns(except?: Element): void {
  for (const open of document.querySelectorAll<HTMLDetailsElement>('details[data-dropdown][open]')) {
    if (open !== except && !open.contains(except ?? null)) open.open = false;
  }
}

/** Document-level listeners, registered once for the life of the page. */
export function initChrome(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element;
    closeDropdowns(target.closest('details[data-dropdown]') ?? undefined);
    const version = target.closest<HTMLElement>('[data-docs-version]');
    if (version) store(version.dataset.storageKey!, version.dataset.docsVersion!);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = document.activeElement?.closest<HTMLDetailsElement>('details[data-dropdown][open]');
    if (!open) return closeDropdowns();
    // The menu around the focus closes and its toggle takes the focus. Only that one: a dropdown
    // in the drawer leaves the drawer open (closing both hid the toggle to be focused, and the
    // focus was lost); a second Escape closes the drawer.
    open.open = false;
    open.querySelector<HTMLElement>(':scope > summary')?.focus();
  });
}

/** Per page: mark the preferred docs version, and wire the colour-mode control if present. */
export function initSettings(root: ParentNode): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('[data-docs-version]')) {
    const preferred = stored(link.dataset.storageKey!);
    if (preferred === link.dataset.docsVersion) link.setAttribute('aria-current', 'true');
  }
  const toggle = root.querySelector<HTMLButtonElement>('[data-color-mode-toggle]:not([data-enhanced])');
  if (!toggle) return;
  toggle.dataset.enhanced = '';
  const modes = toggle.dataset.modes!.split(' ');
  const key = toggle.dataset.storageKey!;
  const apply = (mode: string) => {
    const dark = mode === 'dark' || (mode === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    toggle.setAttribute('aria-label', `Colour mode: ${mode}`);
  };
  let mode = modes.includes(stored(key) ?? '') ? stored(key)! : modes[0];
  apply(mode);
  toggle.addEventListener('click', () => {
    mode = modes[(modes.indexOf(mode) + 1) % modes.length];
    store(key, mode);
    apply(mode);
  });
}
