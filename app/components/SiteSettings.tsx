import { useLocation } from '@remix-run/react';
import { Dropdown } from './Dropdown.js';
import { colorModeSettings, defaultLocale, docsVersionStorageKey, docsVersions, locales } from '../site.js';

/** English only today: every locale links to the page being read, in that locale. */
export function LanguageDropdown() {
  const { pathname } = useLocation();
  return (
    <Dropdown label={defaultLocale.label} icon={<GlobeIcon />} className="dropdown--language">
      {locales.map((locale) => (
        <li key={locale.code}>
          <a
            href={pathname}
            lang={locale.code}
            hrefLang={locale.code}
            className="dropdown__link"
            aria-current={locale.code === defaultLocale.code ? 'true' : undefined}
          >
            {locale.label}
          </a>
        </li>
      ))}
    </Dropdown>
  );
}

/** The docs versions; the client remembers the one chosen under `docsVersionStorageKey`. */
export function DocsVersionDropdown() {
  const current = docsVersions[0];
  return (
    <Dropdown label={current.label} className="dropdown--version">
      {docsVersions.map((version) => (
        <li key={version.name}>
          <a
            href={version.href}
            className="dropdown__link"
            data-docs-version={version.name}
            data-storage-key={docsVersionStorageKey}
          >
            {version.label}
          </a>
        </li>
      ))}
    </Dropdown>
  );
}

/**
 * The colour-mode control (light, dark, system). The theme supports it, but the site settings
 * disable the switch, so it renders nothing unless `colorModeSettings.disableSwitch` is false.
 */
export function ColorModeToggle({ settings = colorModeSettings }: { settings?: typeof colorModeSettings }) {
  if (settings.disableSwitch) return null;
  return (
    <button
      type="button"
      className="color-mode-toggle"
      data-color-mode-toggle
      data-modes={settings.modes.join(' ')}
      data-storage-key={settings.storageKey}
      aria-label={`Colour mode: ${settings.defaultMode}`}
    >
      <span aria-hidden="true">◐</span>
    </button>
  );
}

function GlobeIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        d="M12 3a9 9 0 100 18 9 9 0 000-18zm-9 9h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z"
      />
    </svg>
  );
}
