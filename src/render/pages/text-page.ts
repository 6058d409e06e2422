import { withHeadingIds } from '../../content/markdown.js';
import { CONTENTS_HEADING_ID, TextPage } from '../../../templates/pages/TextPage.js';
import { formatDay } from '../format-day.js';
import { type PageData, type PageParts, pageBody, type RouteOf } from '../page-data.js';

// The contents list comes from the rendered body itself: each h2 gets an id (a slug of its
// text) that no id of the page's frame or the contents' own heading already has.
const FRAME_IDS = [
  'main',
  'site-nav',
  'page-heading',
  'newsletter-heading',
  'newsletter-email',
  'newsletter-consent',
  CONTENTS_HEADING_ID,
];

/** A Markdown page of content/pages/*.md (templates/pages/TextPage.tsx): its body with a contents list. */
export function textPage(route: RouteOf<'text'>, data: PageData): PageParts {
  const { page } = route;
  const body = withHeadingIds(route.body.html, FRAME_IDS);
  return {
    head: data.head(route, page.title, page.description),
    ...pageBody(TextPage, {
      hero: { heading: page.heading, buttons: [], breadcrumb: data.crumbs(page.title, page.path) },
      published: page.published && {
        text: formatDay(page.published),
        iso: page.published.toISOString().slice(0, 10),
      },
      updated: { text: formatDay(page.updated), iso: page.updated.toISOString().slice(0, 10) },
      contents: body.headings,
      body: { html: body.html },
    }),
  };
}
