import type { FaqItem } from '../view-model.js';
import { Html } from './Html.js';

/**
 * The FAQ as native <details>: every answer reads with scripting off. The shared `name` makes
 * them an exclusive accordion in browsers that support it; the script does the same elsewhere.
 * An answer with an id is a link target: the browser opens its <details> when a link leads to it.
 */
export function Faq({ heading, items }: { heading: string; items: FaqItem[] }) {
  return (
    <section className="section" id="faq" aria-labelledby="faq-heading">
      <div className="container container-narrow">
        <h2 id="faq-heading">{heading}</h2>
        <div className="faq" data-faq>
          {items.map((item, i) => (
            <details className="faq-item" name="faq" key={i}>
              <summary>{item.q}</summary>
              <Html value={item.a} className="prose faq-answer" id={item.id} />
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
