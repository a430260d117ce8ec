import type { ReactNode } from 'react';

/**
 * A menu on a native <details>: it opens without JavaScript, and its <summary> is announced as
 * an expandable button. The client closes it on Escape and on a click elsewhere.
 */
export function Dropdown({
  label,
  icon,
  className,
  children,
}: {
  label: string;
  icon?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <details className={`dropdown${className ? ` ${className}` : ''}`} data-dropdown>
      <summary className="dropdown__toggle">
        {icon}
        {label}
      </summary>
      <ul className="dropdown__menu">{children}</ul>
    </details>
  );
}
