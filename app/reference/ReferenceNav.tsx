import type { ReferenceGroup } from './model.js';
import { MethodBadge } from './Operation.js';

function NavList({ groups }: { groups: ReferenceGroup[] }) {
  return (
    <ul className="reference-nav__list">
      {groups.map((group) => (
        <li key={group.name} className="reference-nav__group">
          <span className="reference-nav__group-title">{group.name}</span>
          <ul className="reference-nav__list">
            {group.tags.map((tag) => (
              <li key={tag.anchor}>
                <a className="reference-nav__tag" href={`#${tag.anchor}`}>
                  {tag.name}
                </a>
                <ul className="reference-nav__list reference-nav__operations">
                  {tag.operations.map((operation) => (
                    <li key={operation.anchor}>
                      <a className="reference-nav__operation" href={`#${operation.anchor}`}>
                        <MethodBadge method={operation.method} /> <span>{operation.summary}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </li>
      ))}
      <li className="reference-nav__group">
        <a className="reference-nav__tag" href="#schemas">
          Schemas
        </a>
      </li>
    </ul>
  );
}

/**
 * The left navigation: tag groups, tags, operations, then the schemas. One list (it is a few hundred
 * elements): beside the page on wide screens (sticky), where the styles show it whether or not its
 * `<details>` is open; at 996px or less it sits above the page, folded. `search` is the reference
 * search box, at its top.
 */
export function ReferenceNav({ groups, search }: { groups: ReferenceGroup[]; search?: React.ReactNode }) {
  return (
    <nav className="reference-nav" aria-label="API reference">
      {search}
      <details className="reference-nav__fold">
        <summary>Operations and schemas</summary>
        <NavList groups={groups} />
      </details>
    </nav>
  );
}
