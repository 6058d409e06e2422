import { CrossSells } from '../sections/CrossSells.js';
import { Faq } from '../sections/Faq.js';
import { Hero } from '../sections/Hero.js';
import { Html } from '../sections/Html.js';
import { PackageGrid } from '../sections/PackageGrid.js';
import { Sections } from '../sections/Sections.js';
import type { Frame, HeroView, Html as HtmlValue, PackageTile, SectionView, ServiceCard } from '../view-model.js';

export interface ServicePageProps {
  frame: Frame;
  hero: HeroView;
  packagesHeading: string;
  packages: PackageTile[];
  packagesNote?: HtmlValue;
  supportTile?: { heading: string; text: string };
  publicAccountNotice: string;
  sections: SectionView[];
  faqHeading: string;
  faq: { q: string; a: HtmlValue }[];
  crossSellHeading: string;
  crossSells: ServiceCard[];
}

export function ServicePage(props: ServicePageProps) {
  return (
    <>
      <Hero hero={props.hero} />
      <section className="section section-packages" id="packages" aria-labelledby="packages-heading">
        <div className="container">
          <h2 id="packages-heading">{props.packagesHeading}</h2>
          <p className="notice" role="note">
            {props.publicAccountNotice}
          </p>
          <PackageGrid packages={props.packages} labelledBy="packages-heading" supportTile={props.supportTile} />
          <Html value={props.packagesNote} className="prose packages-note" />
        </div>
      </section>
      <Sections sections={props.sections} frame={props.frame} />
      <Faq heading={props.faqHeading} items={props.faq} />
      <CrossSells heading={props.crossSellHeading} cards={props.crossSells} />
    </>
  );
}
