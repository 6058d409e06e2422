import { NotFoundPage } from '../../../templates/pages/NotFoundPage.js';
import { type PageData, type PageParts, pageBody, type RouteOf } from '../page-data.js';

/** The page a host serves for a path it has no file for (templates/pages/NotFoundPage.tsx), with no canonical URL. */
export function notFoundPage(route: RouteOf<'not-found'>, data: PageData): PageParts {
  const notFound = data.content.site.notFound;
  return {
    head: { ...data.head(route, notFound.title, notFound.message), canonicalUrl: undefined },
    ...pageBody(NotFoundPage, notFound),
  };
}
