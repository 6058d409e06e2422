import { blogListPath } from '../../routes/route-table.js';
import { BlogListPage } from '../../../templates/pages/BlogListPage.js';
import { type PageData, type PageParts, pageBody, type RouteOf } from '../page-data.js';

/** One page of the blog's list of posts (templates/pages/BlogListPage.tsx). */
export function blogListPage(route: RouteOf<'blog-list'>, data: PageData): PageParts {
  const blog = data.content.site.blog;
  const suffix = route.pageNumber > 1 ? ` – page ${route.pageNumber}` : '';
  return {
    head: data.head(route, `${blog.title}${suffix}`, blog.description),
    ...pageBody(BlogListPage, {
      hero: { heading: blog.heading, intro: route.pageNumber === 1 ? blog.intro : undefined, buttons: [] },
      posts: route.posts.map((post) => data.postCard(post)),
      pageNumber: route.pageNumber,
      pageCount: route.pageCount,
      previousPath: route.pageNumber > 1 ? blogListPath(route.pageNumber - 1) : undefined,
      nextPath: route.pageNumber < route.pageCount ? blogListPath(route.pageNumber + 1) : undefined,
    }),
  };
}
