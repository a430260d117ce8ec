import { NavLink } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { SidebarNode } from '../docs/docs.server.js';
import type { TocEntry } from '../docs/markdown.server.js';

function SidebarList({ nodes }: { nodes: SidebarNode[] }) {
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

function TableOfContents({ toc }: { toc: TocEntry[] }) {
  if (toc.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page">
      <p className="toc__title">On this page</p>
      <ul className="toc__list">
        {toc.map((entry) => (
          <li key={entry.id} className={entry.depth === 3 ? 'toc__item toc__item--nested' : 'toc__item'}>
            <a href={`#${entry.id}`}>{entry.text}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A docs page: the one sidebar, the article, and its table of contents. */
export function DocLayout({ sidebar, toc, children }: { sidebar: SidebarNode[]; toc: TocEntry[]; children: ReactNode }) {
  return (
    <div className="doc-layout">
      <nav className="sidebar" aria-label="Docs">
        <SidebarList nodes={sidebar} />
      </nav>
      <article className="doc">{children}</article>
      <TableOfContents toc={toc} />
    </div>
  );
}
