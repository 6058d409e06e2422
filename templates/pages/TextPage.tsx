import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import type { HeroView, Html as HtmlValue } from '../view-model.js';

/** A day as shown ("26 June 2022") and as `YYYY-MM-DD` for `<time datetime>`. */
export interface TextPageDay {
  text: string;
  iso: string;
}

/** One entry of the contents: a heading of the body (an `<h2>`), its id and its text. */
export interface TextPageHeading {
  id: string;
  text: string;
}

/** The id of the contents' own heading; the body's headings are given other ids. */
export const CONTENTS_HEADING_ID = 'contents-heading';

/** Headings numbered in their text ("1. Who we are"): the list then shows no numbers of its own. */
const OWN_NUMBER = /^\d+[.)]?\s/;

/**
 * Terms, privacy and other long-form text: a contents list of the body's headings (plain links,
 * so it works without scripting), then "First published 26 June 2022 · Last updated 25 November
 * 2026" when the page has a `published` date, "Last updated …" alone otherwise, then the body.
 */
export function TextPage({
  hero,
  published,
  updated,
  contents,
  body,
}: {
  hero: HeroView;
  published?: TextPageDay;
  updated: TextPageDay;
  /** The body's `<h2>`s in order, each with the id it has in `body`. */
  contents: TextPageHeading[];
  body: HtmlValue;
}) {
  const ownNumbers = contents.length > 0 && contents.every((heading) => OWN_NUMBER.test(heading.text));
  return (
    <>
      <Hero hero={hero} />
      <section className="section">
        <div className="container container-narrow">
          {contents.length > 0 ? (
            <nav className="contents" aria-labelledby={CONTENTS_HEADING_ID}>
              <h2 id={CONTENTS_HEADING_ID}>Contents</h2>
              <ol className={ownNumbers ? 'contents-own-numbers' : undefined}>
                {contents.map((heading) => (
                  <li key={heading.id}>
                    <a href={`#${heading.id}`}>{heading.text}</a>
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}
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
