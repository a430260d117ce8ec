import { NavLink } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { SidebarNode } from '../docs/docs.server.js';
import type { TocEntry } from '../docs/markdown.server.js';

export function SidebarList({ nodes }: { nodes: SidebarNode[] }) {
  return (
    <ul className="sidebar__list">
      {nodes.map((node) => (
        <li key={node.href}>
          <NavLink to={node.href} end className="sidebar__link">
            {node.label}
          </NavLink>
          {node.children ? <SidebarList nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

function TocList({ toc }: { toc: TocEntry[] }) {
  return (
    <ul className="toc__list">
      {toc.map((entry) => (
        <li key={entry.id} className={entry.depth === 3 ? 'toc__item toc__item--nested' : 'toc__item'}>
          <a href={`#${entry.id}`}>{entry.text}</a>
        </li>
      ))}
    </ul>
  );
}

/**
 * A docs page: the one sidebar, the article, and its table of contents. At 996px or less the
 * sidebar moves into the navbar's drawer and the table of contents folds above the article, so
 * the page starts with its content; CSS shows one form or the other, never both.
 */
export function DocLayout({
  sidebar,
  toc,
  children,
}: {
  sidebar: SidebarNode[];
  toc: TocEntry[];
  children: ReactNode;
}) {
  return (
    <div className="doc-layout">
      <nav className="sidebar" aria-label="Docs">
        <SidebarList nodes={sidebar} />
      </nav>
      <article className="doc">
        {toc.length > 0 ? (
          <details className="toc-collapsible">
            <summary>On this page</summary>
            <TocList toc={toc} />
          </details>
        ) : null}
        {children}
      </article>
      {toc.length > 0 ? (
        <nav className="toc" aria-label="On this page">
          <p className="toc__title">On this page</p>
          <TocList toc={toc} />
        </nav>
      ) : null}
    </div>
  );
}
