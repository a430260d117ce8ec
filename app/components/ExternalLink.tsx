import type { ReactNode } from 'react';

/**
 * Links that leave the portal open in a new tab; `noopener` keeps the new page from reaching
 * back into ours, and the hidden text tells screen-reader users about the new tab.
 */
export function ExternalLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  return (
    <a href={href} className={className} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
