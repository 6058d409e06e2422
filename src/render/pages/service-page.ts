import type { Service } from '../../catalogue/catalogue-index.js';
import { ServicePage } from '../../../templates/pages/ServicePage.js';
import type { Crumb, Frame, HeroView } from '../../../templates/view-model.js';
import { serviceCard } from '../catalogue-views.js';
import { breadcrumbList, organization, serviceWithOffer, webSite } from '../json-ld.js';
import { type PageData, type PageParts, pageBody, type RouteOf } from '../page-data.js';
import { heroButtons, sectionViews } from '../section-views.js';

/** A service's page of content/services (templates/pages/ServicePage.tsx): its packages, prices and reviews. */
export function servicePage(route: RouteOf<'service'>, data: PageData, frame: Frame): PageParts {
  const { page } = route;
  const service = data.services.get(page.subCategory)!;
  const breadcrumb = data.crumbs(page.breadcrumb, page.path);
  // The introduction is the why-choose section's, after the packages (ServicePage.tsx).
  const hero: HeroView = {
    heading: page.hero.heading,
    buttons: heroButtons(data, page.hero.buttons),
    breadcrumb,
    rating: data.ratings.line(page.subCategory),
  };
  return {
    head: data.head(route, page.title, page.description, { jsonLd: serviceJsonLd(route, data, service, breadcrumb) }),
    ...pageBody(ServicePage, {
      frame,
      hero,
      notice: data.content.site.publicAccountNotice,
      packagesHeading: page.packagesHeading,
      offer: data.offer(page.subCategory, page.path),
      buyingTerms: data.buyingTerms,
      packagesNote: page.packagesNote,
      supportTile: page.supportTile,
      sections: sectionViews(data, page.sections, service.sub.service),
      faqHeading: page.faqHeading,
      faq: page.faq,
      crossSellHeading: page.crossSellHeading,
      crossSells: page.crossSells.map((id) =>
        serviceCard(data.services.get(id)!, data.pathOfSub.get(id)!, data.ratings.card(id)),
      ),
      reviews: data.ratings.reviews(page.subCategory),
      reviewsChecked: data.ratings.checked(),
    }),
  };
}

function serviceJsonLd(route: RouteOf<'service'>, data: PageData, service: Service, breadcrumb: Crumb[]): object[] {
  const { page } = route;
  const url = data.absolute(page.path);
  // Every service page has its Service and AggregateOffer; structuredData adds the
  // Organization and WebSite blocks (Instagram followers, as the specification asks).
  const jsonLd: object[] = [breadcrumbList(breadcrumb, data.absolute)];
  if (page.structuredData)
    jsonLd.push(organization(data.config, data.content.trader, data.absolute), webSite(data.config, data.absolute));
  jsonLd.push(serviceWithOffer(data.config, service, page.hero.heading, page.description, url));
  return jsonLd;
}
