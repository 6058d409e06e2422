import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { decodeHTML } from 'entities';
import type { SiteImages } from '../../images/process-images.js';
import { BlogPostPage, POST_IMAGE_SIZES } from '../../../templates/pages/BlogPostPage.js';
import { Picture } from '../../../templates/sections/Picture.js';
import type { Crumb } from '../../../templates/view-model.js';
import { imageView } from '../image-view.js';
import { blogPosting, breadcrumbList } from '../json-ld.js';
import type { PageData, PageParts, RouteOf } from '../page-data.js';

/** A post's page (templates/pages/BlogPostPage.tsx): its body, its picture in link previews, its JSON-LD. */
export function blogPostPage(route: RouteOf<'blog-post'>, data: PageData): PageParts {
  const { post } = route;
  const card = data.postCard(post);
  const url = data.absolute(route.path);
  // Link previews and the structured data show the post's own picture, as the image stage
  // cut it (1200 x 630, a raster even of an SVG); a post without one, the blog's card.
  const share = post.image && data.images.shares.get(post.image.src);
  const preview = share ? { src: share, alt: post.image!.alt || post.titleText } : data.shareCard(route);
  const imageUrl = data.absolute(preview.src);
  const contentHtml = bodyImages(post.contentHtml, data.images.sets);
  const breadcrumb: Crumb[] = [
    { label: 'Home', path: '/' },
    { label: 'Blog', path: '/blog' },
    { label: post.titleText, path: route.path },
  ];
  return {
    head: data.head(route, post.titleText, post.excerptText, {
      ogType: 'article',
      ogImageUrl: imageUrl,
      ogImageAlt: preview.alt,
      jsonLd: [blogPosting(data.config, post, url, imageUrl), breadcrumbList(breadcrumb, data.absolute)],
    }),
    inputs: { post: card, breadcrumb, contentHtml },
    body: () => createElement(BlogPostPage, { post: card, contentHtml, breadcrumb }),
  };
}

/** The images of a post's body as pictures in their formats, loaded when scrolled to. */
function bodyImages(html: string, sets: SiteImages['sets']): string {
  return html.replace(/<img\b[^>]*>/g, (tag) => {
    const attribute = (name: string) => {
      const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
      return value === undefined ? undefined : decodeHTML(value);
    };
    const image = imageView(sets, attribute('src') ?? '', attribute('alt') ?? '');
    return image
      ? renderToString(createElement(Picture, { image, sizes: POST_IMAGE_SIZES, id: attribute('id') }))
      : tag;
  });
}
