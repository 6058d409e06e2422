import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import type { HeroView, Html as HtmlValue } from '../view-model.js';

/** A day as shown ("26 June 2022") and as `YYYY-MM-DD` for `<time datetime>`. */
export interface TextPageDay {
  text: string;
  iso: string;
}

/**
 * Terms, privacy and other long-form text: "First published 26 June 2022 · Last updated
 * 25 November 2026" when the page has a `published` date, "Last updated …" alone otherwise.
 */
export function TextPage({ hero, published, updated, body }: { hero: HeroView; published?: TextPageDay; updated: TextPageDay; body: HtmlValue }) {
  return (
    <>
      <Hero hero={hero} />
      <section className="section">
        <div className="container container-narrow">
          <p className="muted">
            {published ? (
              <>
                First published <time dateTime={published.iso}>{published.text}</time>
                {' · '}
              </>
            ) : null}
            Last updated <time dateTime={updated.iso}>{updated.text}</time>
          </p>
          <Html value={body} className="prose" />
        </div>
      </section>
    </>
  );
}
