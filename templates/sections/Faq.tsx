import type { Html as HtmlValue } from '../view-model.js';
import { Html } from './Html.js';

/**
 * The FAQ as native <details>: every answer reads with scripting off. The shared `name` makes
 * them an exclusive accordion in browsers that support it; the script does the same elsewhere.
 */
export function Faq({ heading, items }: { heading: string; items: { q: string; a: HtmlValue }[] }) {
  return (
    <section className="section" id="faq" aria-labelledby="faq-heading">
      <div className="container container-narrow">
        <h2 id="faq-heading">{heading}</h2>
        <div className="faq" data-faq>
          {items.map((item, i) => (
            <details className="faq-item" name="faq" key={i}>
              <summary>{item.q}</summary>
              <Html value={item.a} className="prose faq-answer" />
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
