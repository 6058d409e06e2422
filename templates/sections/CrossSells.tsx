import { StarIcon } from '../Icons.js';
import { CARD_COLUMNS, gridClass } from '../grid.js';
import { PlatformMark } from '../PlatformMark.js';
import type { ServiceCard } from '../view-model.js';

export function CrossSells({ heading, cards }: { heading: string; cards: ServiceCard[] }) {
  if (cards.length === 0) return null;
  return (
    <section className="section section-alt" id="more-services" aria-labelledby="more-services-heading">
      <div className="container">
        <h2 id="more-services-heading">{heading}</h2>
        <ul className={gridClass(cards.length, CARD_COLUMNS)}>
          {cards.map((card) => (
            <li className="card service-card" key={card.path}>
              <PlatformMark platform={card.platform} />
              <div>
                <h3>
                  <a href={card.path}>{card.name}</a>
                </h3>
                <p className="service-card-price">
                  Starting from <strong data-price>{card.fromPrice}</strong>
                </p>
                {card.rating ? (
                  <p className="service-card-rating">
                    <StarIcon /> <span>{card.rating}</span>
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
