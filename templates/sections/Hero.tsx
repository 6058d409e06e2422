import { StarIcon } from '../Icons.js';
import type { HeroView } from '../view-model.js';
import { Breadcrumb } from './Breadcrumb.js';
import { Html } from './Html.js';

export function Hero({ hero, large = false }: { hero: HeroView; large?: boolean }) {
  return (
    <section className={large ? 'hero hero-large' : 'hero'} aria-labelledby="page-heading">
      <div className="container">
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
        <Html value={hero.intro} className="hero-intro prose" />
        {hero.buttons.length > 0 ? (
          <p className="hero-buttons">
            {hero.buttons.map((button, i) => (
              <a key={button.path} className={i === 0 ? 'button button-large' : 'button button-large button-ghost'} href={button.path}>
                {button.label}
              </a>
            ))}
          </p>
        ) : null}
      </div>
    </section>
  );
}
