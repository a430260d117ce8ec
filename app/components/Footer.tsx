import { ExternalLink } from './ExternalLink.js';
import { copyrightYear, footerGroups, projectName } from '../site.js';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__groups">
          {footerGroups.map((group) => (
            <section key={group.title} className="footer__group" aria-labelledby={groupId(group.title)}>
              <h2 className="footer__title" id={groupId(group.title)}>
                {group.title}
              </h2>
              <ul className="footer__list">
                {group.links.map((link) => (
                  <li key={link.href}>
                    <ExternalLink href={link.href} className="footer__link">
                      {link.label}
                    </ExternalLink>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        <p className="footer__copyright">
          Copyright © {copyrightYear} {projectName}
        </p>
      </div>
    </footer>
  );
}

function groupId(title: string): string {
  return `footer-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
