import { WarningIcon } from '../Icons.js';
import { CrossSells } from '../sections/CrossSells.js';
import { Faq } from '../sections/Faq.js';
import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import { BuyingTerms } from '../sections/BuyingTerms.js';
import { PackageOffer } from '../sections/PackageOffer.js';
import { Sections } from '../sections/Sections.js';
import { Reviews } from '../sections/Reviews.js';
import type {
  FaqItem,
  Frame,
  HeroView,
  Html as HtmlValue,
  PackageOffer as Offer,
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
  /** The packages, with the platform's rules and how delivery goes above them. */
  offer: Offer;
  /** Under the packages: how VAT stands and the right to cancel, each linked to its full text. */
  buyingTerms: HtmlValue[];
  packagesNote?: HtmlValue;
  supportTile?: { heading: string; text: string };
  sections: SectionView[];
  faqHeading: string;
  faq: FaqItem[];
  crossSellHeading: string;
  crossSells: ServiceCard[];
  reviews: ReviewView[];
  /** Where the reviews come from and how they are checked (content/reviews.yaml). */
  reviewsChecked?: string;
}

/**
 * A service page sells on the first screen of a phone: the hero holds only the breadcrumb, the
 * heading and the account notice, and the packages follow, the platform's rules above them and
 * the terms of buying under them.
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
          <PackageOffer offer={props.offer} labelledBy="packages-heading" supportTile={props.supportTile} />
          <BuyingTerms terms={props.buyingTerms} />
          <Html value={props.packagesNote} className="prose packages-note" />
        </div>
      </section>
      <Sections sections={props.sections} frame={props.frame} />
      <Reviews reviews={props.reviews} checked={props.reviewsChecked} />
      <Faq heading={props.faqHeading} items={props.faq} />
      <CrossSells heading={props.crossSellHeading} cards={props.crossSells} />
    </>
  );
}
