import { ContentPage } from '../../../templates/pages/ContentPage.js';
import type { Frame, HeroView } from '../../../templates/view-model.js';
import { platformTiles } from '../catalogue-views.js';
import { organization, webSite } from '../json-ld.js';
import { type PageData, type PageParts, pageBody, type RouteOf } from '../page-data.js';
import { heroButtons, sectionViews } from '../section-views.js';

/** A page of content/pages/*.yaml (templates/pages/ContentPage.tsx); the home page's hero is the large one. */
export function contentPage(route: RouteOf<'page'>, data: PageData, frame: Frame): PageParts {
  const { page } = route;
  const isHome = route.path === '/';
  // A platform's tile leads to its packages: in this page's picker, else on its first service page.
  const hasPicker = page.sections.some((section) => section.kind === 'picker');
  const linkTo = (subs: number[]) => {
    const withPage = subs.find((id) => data.pathOfSub.has(id));
    return hasPicker || withPage === undefined ? `#pick-${subs[0]}` : data.pathOfSub.get(withPage)!;
  };
  const hero: HeroView = {
    heading: page.hero.heading,
    intro: page.hero.intro,
    buttons: heroButtons(data, page.hero.buttons),
    rating: isHome ? data.ratings.line() : undefined,
    visual: page.hero.platforms ? platformTiles(data.content.catalogue, data.services, linkTo) : undefined,
  };
  return {
    head: data.head(route, page.title, page.description, {
      jsonLd: isHome
        ? [organization(data.config, data.content.trader, data.absolute), webSite(data.config, data.absolute)]
        : [],
    }),
    ...pageBody(ContentPage, { frame, hero, sections: sectionViews(data, page.sections), large: isHome }),
  };
}
