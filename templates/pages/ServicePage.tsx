import { WarningIcon } from '../Icons.js';
import { CrossSells } from '../sections/CrossSells.js';
import { Faq } from '../sections/Faq.js';
import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import { PackageGrid } from '../sections/PackageGrid.js';
import { Sections } from '../sections/Sections.js';
import { Reviews } from '../sections/Reviews.js';
import type {
  FaqItem,
  Frame,
  HeroView,
  Html as HtmlValue,
  PackageTile,
  ReviewView,
  SectionView,
  ServiceCard,
} from '../view-model.js';

export interface ServicePageProps {
  frame: Frame;
  hero: HeroView;
  /** 'Your account should be public!', and one explanatory line: in the hero, above the packages. */
  notice: { heading: string; text?: string };
  packagesHeading: string;
  packages: PackageTile[];
  /** What a buyer needs beside the price (the platform's rules, VAT, cancelling), each linked to its full text. */
  beforeYouBuy: HtmlValue[];
  packagesNote?: HtmlValue;
  /** "50 to 200 watch hours a day", where the service's daily pace is known. */
  delivery?: string;
  supportTile?: { heading: string; text: string };
  sections: SectionView[];
  faqHeading: string;
  faq: FaqItem[];
  crossSellHeading: string;
  crossSells: ServiceCard[];
  reviews: ReviewView[];
}

/**
 * A service page sells on the first screen of a phone: the hero holds only the breadcrumb, the
 * heading and the account notice, and the packages follow with the facts to know before buying.
 * The page's introduction is its why-choose section's, after the packages.
 */
export function ServicePage(props: ServicePageProps) {
  return (
    <>
      <Hero hero={props.hero}>
        <div className="notice" role="note">
          <WarningIcon />
          <p>
            <strong>{props.notice.heading}</strong>
            {props.notice.text ? <span className="notice-text">{props.notice.text}</span> : null}
          </p>
        </div>
      </Hero>
      <section className="section section-packages" id="packages" aria-labelledby="packages-heading">
        <div className="container">
          <h2 id="packages-heading">{props.packagesHeading}</h2>
          <PackageGrid packages={props.packages} labelledBy="packages-heading" supportTile={props.supportTile} />
          <ul className="before-you-buy" id="before-you-buy" aria-label="Before you buy">
            {props.beforeYouBuy.map((fact, i) => (
              /* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from site.yaml's beforeYouBuy,
                 rendered and checked by content/markdown.ts */
              <li key={i} dangerouslySetInnerHTML={{ __html: fact.html }} />
            ))}
          </ul>
          {props.delivery ? (
            <p className="packages-note">
              {`Delivered at ${props.delivery}: each package shows how many days it takes.`}
            </p>
          ) : null}
          <Html value={props.packagesNote} className="prose packages-note" />
        </div>
      </section>
      <Sections sections={props.sections} frame={props.frame} />
      <Reviews reviews={props.reviews} />
      <Faq heading={props.faqHeading} items={props.faq} />
      <CrossSells heading={props.crossSellHeading} cards={props.crossSells} />
    </>
  );
}
