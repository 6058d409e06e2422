import { StarIcon } from '../Icons.js';
import type { ServiceCard } from '../view-model.js';

export function CrossSells({ heading, cards }: { heading: string; cards: ServiceCard[] }) {
  if (cards.length === 0) return null;
  return (
    <section className="section section-alt" id="more-services" aria-labelledby="more-services-heading">
      <div className="container">
        <h2 id="more-services-heading">{heading}</h2>
        <ul className="service-cards">
          {cards.map((card) => (
            <li className="service-card" key={card.path}>
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
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
