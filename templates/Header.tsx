import { ChevronIcon, LogoMark, MenuIcon } from './Icons.js';
import type { Frame, NavLink } from './view-model.js';

function MainLink({ frame, link }: { frame: Frame; link: NavLink }) {
  return (
    <li>
      <a href={link.path} aria-current={frame.currentPath === link.path ? 'page' : undefined}>
        {link.label}
      </a>
    </li>
  );
}

/**
 * The site header. The Services mega menu is a native <details>, so it opens by click, tap and
 * keyboard with scripting off; the browser script only adds closing on Escape and outside click.
 */
export function Header({ frame }: { frame: Frame }) {
  return (
    <header className="site-header" data-header>
      <div className="container header-inner">
        <a className="brand" href="/" aria-label={`${frame.brandName} home`}>
          <LogoMark />
          <span>{frame.brandName}</span>
        </a>
        {/* Shown only where scripting is enabled (CSS `scripting` media query), so the page has
            the same layout before and after the script runs; with scripting off the links
            are always visible instead. */}
        <button type="button" className="menu-toggle" aria-expanded="false" aria-controls="site-nav" data-menu-toggle>
          <MenuIcon />
          <span>Menu</span>
        </button>
        <nav className="main-nav" id="site-nav" aria-label="Main">
          <ul className="nav-list">
            {/* The Services menu follows the first link (Home); see content/site.yaml. */}
            {frame.mainLinks.slice(0, 1).map((link) => (
              <MainLink key={link.path} frame={frame} link={link} />
            ))}
            <li className="nav-services">
              <details className="mega" data-mega>
                <summary aria-current={frame.servicesActive ? 'true' : undefined}>
                  Services <ChevronIcon size={14} />
                </summary>
                <div className="mega-panel">
                  {frame.servicesMenu.map((column) => (
                    <div className="mega-column" key={column.heading}>
                      <p className="mega-heading">{column.heading}</p>
                      <ul>
                        {column.links.map((link) => (
                          <li key={link.path}>
                            <a href={link.path} aria-current={frame.currentPath === link.path ? 'page' : undefined}>
                              {link.label}
                            </a>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
              </details>
            </li>
            {frame.mainLinks.slice(1).map((link) => (
              <MainLink key={link.path} frame={frame} link={link} />
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
