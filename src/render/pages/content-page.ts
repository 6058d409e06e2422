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
  const hero: HeroView = {
    heading: page.hero.heading,
    intro: page.hero.intro,
    buttons: heroButtons(data, page.hero.buttons),
    rating: isHome ? data.ratings.line() : undefined,
    visual: isHome ? platformTiles(data.content.catalogue, data.services) : undefined,
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
