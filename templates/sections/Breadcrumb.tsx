import type { Crumb } from '../view-model.js';

export function Breadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={crumb.path}>
            <a href={crumb.path} aria-current={i === crumbs.length - 1 ? 'page' : undefined}>
              {crumb.label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
