/**
 * Everything the chrome shows (navbar, footer, names) lives here, so that a later page or test
 * can reuse the same links instead of copying them.
 */
export const siteTitle = 'API documentation';
export const projectName = 'pass Culture';
export const copyrightYear = 2025;
export const sourceRepositoryUrl = 'https://github.com/pass-culture/pass-culture-main';

export interface SiteLink {
  label: string;
  href: string;
}

export const navbarItems: SiteLink[] = [
  { label: 'Docs', href: '/docs' },
  { label: 'REST API', href: '/rest-api' },
  { label: 'Change logs', href: '/change-logs' },
];

export interface FooterGroup {
  title: string;
  links: SiteLink[];
}

export const footerGroups: FooterGroup[] = [
  {
    title: 'Our websites',
    links: [
      { label: 'For cultural partners', href: 'https://passculture.pro/' },
      { label: 'For beneficiaries', href: 'https://passculture.app/' },
      { label: 'General information', href: 'https://pass.culture.fr/' },
    ],
  },
  {
    title: 'Useful links',
    links: [
      { label: 'Terms of use for the APIs', href: 'https://pass.culture.fr/cgu-api/' },
      { label: 'Help center', href: 'https://aide.passculture.app/' },
      { label: 'Source repository', href: sourceRepositoryUrl },
    ],
  },
  {
    title: 'Social',
    links: [
      { label: 'LinkedIn', href: 'https://www.linkedin.com/company/pass-culture/' },
      { label: 'X (Twitter)', href: 'https://x.com/pass_culture' },
      { label: 'Medium', href: 'https://medium.com/passculture' },
      { label: 'TikTok', href: 'https://www.tiktok.com/@pass.culture' },
    ],
  },
];

/**
 * Site settings the chrome obeys. The theme supports three colour modes and styles the dark one,
 * but the product's site settings disable the switch: light only, and the control is not rendered.
 */
export type ColorMode = 'light' | 'dark' | 'system';
export const colorModeSettings = {
  defaultMode: 'light' as ColorMode,
  disableSwitch: true,
  modes: ['light', 'dark', 'system'] as ColorMode[],
  /** Where the reader's choice is kept when the switch is enabled. */
  storageKey: 'portal.theme',
};

export interface Locale {
  code: string;
  label: string;
}
/** English only: the language dropdown offers this single locale. */
export const locales: Locale[] = [{ code: 'en', label: 'English' }];
export const defaultLocale = locales[0];

export interface DocsVersion {
  name: string;
  label: string;
  href: string;
}
/** One version of the docs today; the selector keeps the reader's choice in local storage. */
export const docsVersions: DocsVersion[] = [{ name: 'current', label: 'Current', href: '/docs' }];
export const docsVersionStorageKey = 'docs-preferred-version-default';
