import type { Crumb } from '../view-model.js';

/**
 * Crumb paths are decoded route paths; links are percent-encoded (non-ASCII post slugs). The
 * separators are drawn after each crumb but the last (styles.css), so a line never starts with
 * one; the last crumb, the page itself, is cut short with an ellipsis rather than wrapped.
 */
export function Breadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={crumb.path}>
            <a href={encodeURI(crumb.path)} aria-current={i === crumbs.length - 1 ? 'page' : undefined}>
              {crumb.label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
