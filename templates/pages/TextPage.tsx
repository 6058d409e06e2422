import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import type { HeroView, Html as HtmlValue } from '../view-model.js';

/** Terms, privacy and other long-form text. */
export function TextPage({ hero, updated, updatedIso, body }: { hero: HeroView; updated: string; updatedIso: string; body: HtmlValue }) {
  return (
    <>
      <Hero hero={hero} />
      <section className="section">
        <div className="container container-narrow">
          <p className="muted">
            Last updated <time dateTime={updatedIso}>{updated}</time>
          </p>
          <Html value={body} className="prose" />
        </div>
      </section>
    </>
  );
}
