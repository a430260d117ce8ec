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
