import { StarIcon } from '../Icons.js';
import { PlatformMark } from '../PlatformMark.js';
import type { ReactNode } from 'react';
import type { HeroView } from '../view-model.js';
import { Breadcrumb } from './Breadcrumb.js';
import { Html } from './Html.js';

/**
 * The page's heading, intro and buttons; with a visual, the platforms it sells beside them (one
 * tile each: mark, name, services and starting price, all from the catalogue), each a link to
 * its packages. `children` come after the heading and rating, before the intro (a service
 * page's account notice).
 */
export function Hero({ hero, large = false, children }: { hero: HeroView; large?: boolean; children?: ReactNode }) {
  return (
    <section className={large ? 'hero hero-large' : 'hero'} aria-labelledby="page-heading">
      <div className={hero.visual ? 'container hero-split' : 'container'}>
        <div className="hero-text">
          {hero.breadcrumb ? <Breadcrumb crumbs={hero.breadcrumb} /> : null}
          <h1 id="page-heading">{hero.heading}</h1>
          {hero.rating ? (
            <p className="rating-line">
              <span className="stars" aria-hidden="true">
                <StarIcon />
              </span>
              <a href={hero.rating.href}>{hero.rating.text}</a>
            </p>
          ) : null}
          {children}
          <Html value={hero.intro} className="hero-intro prose" />
          {hero.buttons.length > 0 ? (
            <p className="hero-buttons">
              {hero.buttons.map((button, i) => (
                <a
                  key={button.path}
                  className={
                    button.platform
                      ? 'button button-ghost button-platform'
                      : i === 0
                        ? 'button button-large'
                        : 'button button-large button-ghost'
                  }
                  href={button.path}
                >
                  {button.platform ? <PlatformMark platform={button.platform} size="sm" /> : null}
                  {button.label}
                </a>
              ))}
            </p>
          ) : null}
        </div>
        {hero.visual ? (
          <ul className="hero-visual" aria-label="Shop by platform">
            {hero.visual.map((tile) => (
              <li key={tile.platform}>
                <a className="hero-tile" href={tile.href}>
                  <PlatformMark platform={tile.platform} size="lg" />
                  <span className="hero-tile-text">
                    <span className="hero-tile-name">{tile.name}</span>
                    <span className="hero-tile-detail">
                      <span className="hero-tile-services">{`${tile.detail} `}</span>
                      from <strong data-price>{tile.fromPrice}</strong>
                    </span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
