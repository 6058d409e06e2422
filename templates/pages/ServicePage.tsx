import { InfoIcon } from '../Icons.js';
import { CrossSells } from '../sections/CrossSells.js';
import { Faq } from '../sections/Faq.js';
import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import { PackageGrid } from '../sections/PackageGrid.js';
import { Sections } from '../sections/Sections.js';
import { Reviews } from '../sections/Reviews.js';
import type { Frame, HeroView, Html as HtmlValue, PackageTile, ReviewView, SectionView, ServiceCard } from '../view-model.js';

export interface ServicePageProps {
  frame: Frame;
  hero: HeroView;
  packagesHeading: string;
  packages: PackageTile[];
  packagesNote?: HtmlValue;
  /** "50 to 200 watch hours a day", where the service's daily pace is known. */
  delivery?: string;
  supportTile?: { heading: string; text: string };
  publicAccountNotice: string;
  sections: SectionView[];
  faqHeading: string;
  faq: { q: string; a: HtmlValue }[];
  crossSellHeading: string;
  crossSells: ServiceCard[];
  reviews: ReviewView[];
}

export function ServicePage(props: ServicePageProps) {
  return (
    <>
      <Hero hero={props.hero} />
      <section className="section section-packages" id="packages" aria-labelledby="packages-heading">
        <div className="container">
          <h2 id="packages-heading">{props.packagesHeading}</h2>
          <p className="notice" role="note">
            <InfoIcon />
            <span>{props.publicAccountNotice}</span>
          </p>
          <PackageGrid packages={props.packages} labelledBy="packages-heading" supportTile={props.supportTile} />
          {props.delivery ? (
            <p className="packages-note">{`Delivered at ${props.delivery}: each package shows how many days it takes.`}</p>
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
