import { ArrowIcon, CheckIcon } from '../Icons.js';
import { CARD_COLUMNS, gridClass } from '../grid.js';
import { PlatformMark } from '../PlatformMark.js';
import type { CardItem } from '../view-model.js';
import { Html } from './Html.js';

/**
 * A grid of titled blurbs; a card with a path links its title to that page, and a card linking
 * to a service page shows that platform's mark instead of the tick.
 */
export function Cards({ items, numbered = false }: { items: CardItem[]; numbered?: boolean }) {
  const List = numbered ? 'ol' : 'ul';
  return (
    <List className={`${gridClass(items.length, CARD_COLUMNS)}${numbered ? ' steps' : ''}`}>
      {items.map((item, i) => (
        <li className="card" key={`${i}-${item.title}`}>
          {numbered ? (
            <span className="step-number" aria-hidden="true">
              {i + 1}
            </span>
          ) : item.platform ? (
            <PlatformMark platform={item.platform} />
          ) : (
            <span className="card-icon" aria-hidden="true">
              <CheckIcon />
            </span>
          )}
          <h3>{item.path ? <a href={item.path}>{item.title}</a> : item.title}</h3>
          <Html value={item.text} />
          {item.path ? (
            <p className="card-more" aria-hidden="true">
              <ArrowIcon />
            </p>
          ) : null}
        </li>
      ))}
    </List>
  );
}
