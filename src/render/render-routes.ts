import { createHash } from 'node:crypto';
import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { decodeHTML } from 'entities';
import { indexCatalogue, type Service } from '../catalogue/catalogue-index.js';
import { siteRoot, type Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import { withHeadingIds } from '../content/markdown.js';
import type { Post } from '../content/post.js';
import type { Section } from '../content/schemas.js';
import { codes } from '../errors/catalogue.js';
import type { SiteImages } from '../images/process-images.js';
import type { ShareCard } from '../images/share-cards.js';
import { NOTHING_WRITTEN, StorefrontError, type Problem } from '../errors/storefront-error.js';
import { absoluteUrl, blogListPath, postPath, type Route } from '../routes/route-table.js';
import { Document } from '../../templates/Document.js';
import { Footer } from '../../templates/Footer.js';
import { Header } from '../../templates/Header.js';
import { BlogListPage } from '../../templates/pages/BlogListPage.js';
import { BlogPostPage, POST_IMAGE_SIZES } from '../../templates/pages/BlogPostPage.js';
import { Picture } from '../../templates/sections/Picture.js';
import { ContentPage } from '../../templates/pages/ContentPage.js';
import { NotFoundPage } from '../../templates/pages/NotFoundPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { CONTENTS_HEADING_ID, TextPage } from '../../templates/pages/TextPage.js';
import type {
  Crumb,
  Frame,
  Head,
  HeroView,
  Html as HtmlValue,
  ImageView,
  PostCard,
  SectionView,
} from '../../templates/view-model.js';
import { escapeMarkup } from '../util/escape.js';
import {
  deliveryPace,
  packageTiles,
  pickerGroups,
  platformOfPaths,
  platformTiles,
  serviceCard,
  serviceListGroups,
  serviceTile,
} from './catalogue-views.js';
import { withBasePath } from './base-path.js';
import { makeFrameFactory } from './frame.js';
import { formatDay } from './format-day.js';
import { Ratings } from './ratings.js';
import { blogPosting, breadcrumbList, organization, serviceWithOffer, webSite } from './json-ld.js';

export interface RenderOptions {
  stylesheetHref: string;
  scriptHref: string;
  now: Date;
  /** The posts' images in their formats and widths, and their share images (the image stage). */
  images: Pick<SiteImages, 'sets' | 'shares'>;
  /** Each route's share card, its og:image unless it is a post with a share image (the cards stage). */
  shareCards: ReadonlyMap<string, ShareCard>;
}

/** Where every page finds the stylesheet, the script (by their files in the output) and its share card. */
export function renderOptions(
  stylesheetFile: string,
  scriptFile: string,
  now: Date,
  images: RenderOptions['images'],
  shareCards: RenderOptions['shareCards'],
): RenderOptions {
  return { stylesheetHref: `/${stylesheetFile}`, scriptHref: `/${scriptFile}`, now, images, shareCards };
}

const SLOT = 'storefront-slot';
const HEADER_SLOT = `<${SLOT} name="header"></${SLOT}>`;
const FOOTER_SLOT = `<${SLOT} name="footer"></${SLOT}>`;

/**
 * What the header and footer depend on: whether a service page is shown, and the current path
 * when the header links to it. Every blog post shares one key, so its header is rendered once.
 */
function shellKey(frame: Frame): string {
  const linked =
    frame.mainLinks.some((l) => l.path === frame.currentPath) ||
    frame.servicesMenu.some((c) => c.links.some((l) => l.path === frame.currentPath));
  return `${frame.servicesActive}|${linked ? frame.currentPath : ''}`;
}

/**
 * Pages rendered by an earlier build of the same process, by path, with a hash of their props:
 * `storefront dev` keeps one, so a rebuild renders only the pages whose props changed.
 * Templates are pure functions of their props, so equal props make byte-identical HTML.
 */
export type PageMemo = Map<string, { props: string; html: string }>;

/**
 * Turns each route into a complete HTML document and hands it to `page` (which writes it).
 * Rendering itself is pure: no file or network access. A page that cannot be rendered fails the
 * build after all pages were tried. Returns how many pages were rendered (the others came from
 * the memo) and the time spent rendering.
 */
export async function renderRoutes(
  config: Config,
  content: SiteContent,
  routes: readonly Route[],
  options: RenderOptions,
  page: (route: Route, html: string) => Promise<void> | void,
  memo?: PageMemo,
): Promise<{ rendered: number; ms: number }> {
  const context = new RenderContext(config, content, options);
  const failures: Problem[] = [];
  let ms = 0;
  let rendered = 0;
  for (const route of routes) {
    let html: string;
    const t0 = performance.now();
    try {
      const prepared = context.prepare(route);
      const props =
        memo &&
        createHash('sha1')
          .update(JSON.stringify([route.kind, prepared.frame, prepared.head, prepared.inputs]))
          .digest('base64url');
      const before = memo?.get(route.path);
      if (before && before.props === props) {
        html = before.html;
      } else {
        html = withBasePath(context.html(prepared), context.basePath);
        rendered += 1;
        if (memo) memo.set(route.path, { props: props!, html });
      }
    } catch (err) {
      failures.push({
        code: codes.renderFailed,
        file: route.source,
        message: `The page ${route.path} could not be rendered: ${(err as Error).message}`,
        hint: 'This is a bug in a template or in the data it was given; run with --debug for the stack.',
      });
      continue;
    } finally {
      ms += performance.now() - t0;
    }
    if (failures.length === 0) await page(route, html);
  }
  if (failures.length) throw new StorefrontError(failures, NOTHING_WRITTEN);
  if (memo) {
    const paths = new Set(routes.map((route) => route.path));
    for (const path of memo.keys()) if (!paths.has(path)) memo.delete(path);
  }
  return { rendered, ms };
}

/** A page's body whose props are all it shows. */
function pageBody<P extends object>(component: FunctionComponent<P>, props: P): Pick<PreparedPage, 'inputs' | 'body'> {
  return { inputs: props, body: () => createElement(component, props) };
}

/** A page ready to render: its frame and head, and its body as data and as an element. */
interface PreparedPage {
  frame: Frame;
  head: Head;
  /** Everything the body shows, as plain data: the page's props. */
  inputs: unknown;
  body: () => ReactElement;
}

class RenderContext {
  private readonly services: Map<number, Service>;
  private readonly pathOfSub: Map<number, string>;
  /** The platform slug of each service page's path: links to it show that platform's mark. */
  private readonly platformOfPath: Map<string, string>;
  private readonly frameFor: (path: string) => Frame;
  private readonly ratings: Ratings;
  readonly basePath: string;
  /** The facts beside every service page's packages, the same on each; how VAT stands follows the trader's VAT number. */
  private readonly beforeYouBuy: HtmlValue[];

  constructor(
    private readonly config: Config,
    private readonly content: SiteContent,
    private readonly options: RenderOptions,
  ) {
    this.services = indexCatalogue(content.catalogue);
    this.pathOfSub = new Map(content.services.map((s) => [s.page.subCategory, s.page.path]));
    this.platformOfPath = platformOfPaths(
      this.services,
      content.services.map((s) => s.page),
    );
    this.ratings = new Ratings(content.reviews);
    this.basePath = config.basePath;
    const { platformRules, vat, cancellation } = content.site.beforeYouBuy;
    this.beforeYouBuy = [
      platformRules,
      { html: `<p>${escapeMarkup(content.trader.vatNumber ? vat.registered : vat.notRegistered)}</p>` },
      cancellation,
    ];
    this.frameFor = makeFrameFactory(
      config,
      content,
      { stylesheetHref: options.stylesheetHref, scriptHref: options.scriptHref },
      options.now,
    );
  }

  absolute = (path: string): string => absoluteUrl(siteRoot(this.config), path);

  /** Header and footer HTML by the parts of the frame they depend on (see `shellKey`). */
  private readonly shells = new Map<string, { header: string; footer: string }>();

  prepare(route: Route): PreparedPage {
    const frame = this.frameFor(route.path);
    return { frame, ...this.page(route, frame) };
  }

  html({ frame, head, body }: PreparedPage): string {
    const key = shellKey(frame);
    let shell = this.shells.get(key);
    if (!shell) {
      shell = {
        header: renderToString(createElement(Header, { frame })),
        footer: renderToString(createElement(Footer, { frame })),
      };
      this.shells.set(key, shell);
    }
    const element = createElement(Document, {
      frame,
      head,
      children: body(),
      header: createElement(SLOT, { name: 'header' }),
      footer: createElement(SLOT, { name: 'footer' }),
    });
    // Elements hold no text beside the slots, so React puts no separator next to them and the
    // result is byte for byte what rendering the header and footer in place gives.
    return `<!DOCTYPE html>${renderToString(element)}`
      .replace(HEADER_SLOT, () => shell.header)
      .replace(FOOTER_SLOT, () => shell.footer);
  }

  private head(route: Route, title: string, description: string, extra: Partial<Head> = {}): Head {
    return {
      title: `${title} | ${this.config.brandName}`,
      description,
      canonicalUrl: this.absolute(route.path),
      ogImageUrl: this.absolute(this.shareCard(route).src),
      ogImageAlt: this.shareCard(route).alt,
      ogType: 'website',
      noindex: !route.indexable,
      jsonLd: [],
      ...extra,
    };
  }

  /** The route's share card (share-cards.ts): every route has one, a post the blog's. */
  private shareCard(route: Route): ShareCard {
    const card = this.options.shareCards.get(route.path);
    if (!card) throw new Error(`no share card was made for ${route.path}`);
    return card;
  }

  private crumbs(label: string, path: string): Crumb[] {
    return [
      { label: 'Home', path: '/' },
      { label, path },
    ];
  }

  private page(route: Route, frame: Frame): Omit<PreparedPage, 'frame'> {
    switch (route.kind) {
      case 'page': {
        const { page } = route;
        const isHome = route.path === '/';
        const hero: HeroView = {
          heading: page.hero.heading,
          intro: page.hero.intro,
          buttons: this.heroButtons(page.hero.buttons),
          rating: isHome ? this.ratings.line() : undefined,
          visual: isHome ? platformTiles(this.content.catalogue, this.services) : undefined,
        };
        return {
          head: this.head(route, page.title, page.description, {
            jsonLd: isHome
              ? [organization(this.config, this.content.trader, this.absolute), webSite(this.config, this.absolute)]
              : [],
          }),
          ...pageBody(ContentPage, { frame, hero, sections: this.sections(page.sections), large: isHome }),
        };
      }
      case 'service': {
        const { page } = route;
        const service = this.services.get(page.subCategory)!;
        const breadcrumb = this.crumbs(page.breadcrumb, page.path);
        const url = this.absolute(page.path);
        // Every service page has its Service and AggregateOffer; structuredData adds the
        // Organization and WebSite blocks (Instagram followers, as the specification asks).
        const jsonLd: object[] = [breadcrumbList(breadcrumb, this.absolute)];
        if (page.structuredData)
          jsonLd.push(
            organization(this.config, this.content.trader, this.absolute),
            webSite(this.config, this.absolute),
          );
        jsonLd.push(serviceWithOffer(this.config, service, page.hero.heading, page.description, url));
        // The introduction is the why-choose section's, after the packages (ServicePage.tsx).
        const hero: HeroView = {
          heading: page.hero.heading,
          buttons: this.heroButtons(page.hero.buttons),
          breadcrumb,
          rating: this.ratings.line(page.subCategory),
          visual: [serviceTile(service)],
        };
        return {
          head: this.head(route, page.title, page.description, { jsonLd }),
          ...pageBody(ServicePage, {
            frame,
            hero,
            notice: this.content.site.publicAccountNotice,
            packagesHeading: page.packagesHeading,
            packages: packageTiles(service, this.config.checkoutUrl),
            beforeYouBuy: this.beforeYouBuy,
            delivery: service.sub.deliveryPerDay && deliveryPace(service.sub.deliveryPerDay, service.sub.name),
            packagesNote: page.packagesNote,
            supportTile: page.supportTile,
            sections: this.sections(page.sections),
            faqHeading: page.faqHeading,
            faq: page.faq,
            crossSellHeading: page.crossSellHeading,
            crossSells: page.crossSells.map((id) =>
              serviceCard(this.services.get(id)!, this.pathOfSub.get(id)!, this.ratings.card(id)),
            ),
            reviews: this.ratings.reviews(page.subCategory),
          }),
        };
      }
      case 'text': {
        const { page } = route;
        // The contents list comes from the rendered body itself: each h2 gets an id (a slug of its
        // text) that no id of the page's frame or the contents' own heading already has.
        const frameIds = [
          'main',
          'site-nav',
          'page-heading',
          'newsletter-heading',
          'newsletter-email',
          'newsletter-consent',
          CONTENTS_HEADING_ID,
        ];
        const body = withHeadingIds(route.body.html, frameIds);
        return {
          head: this.head(route, page.title, page.description),
          ...pageBody(TextPage, {
            hero: { heading: page.heading, buttons: [], breadcrumb: this.crumbs(page.title, page.path) },
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
      case 'blog-list': {
        const blog = this.content.site.blog;
        const suffix = route.pageNumber > 1 ? ` – page ${route.pageNumber}` : '';
        return {
          head: this.head(route, `${blog.title}${suffix}`, blog.description),
          ...pageBody(BlogListPage, {
            hero: { heading: blog.heading, intro: route.pageNumber === 1 ? blog.intro : undefined, buttons: [] },
            posts: route.posts.map((post) => this.postCard(post)),
            pageNumber: route.pageNumber,
            pageCount: route.pageCount,
            previousPath: route.pageNumber > 1 ? blogListPath(route.pageNumber - 1) : undefined,
            nextPath: route.pageNumber < route.pageCount ? blogListPath(route.pageNumber + 1) : undefined,
          }),
        };
      }
      case 'blog-post': {
        const { post } = route;
        const card = this.postCard(post);
        const url = this.absolute(route.path);
        // Link previews and the structured data show the post's own picture, as the image stage
        // cut it (1200 x 630, a raster even of an SVG); a post without one, the blog's card.
        const share = post.image && this.options.images.shares.get(post.image.src);
        const preview = share ? { src: share, alt: post.image!.alt || post.titleText } : this.shareCard(route);
        const imageUrl = this.absolute(preview.src);
        const contentHtml = this.bodyImages(post.contentHtml);
        const breadcrumb: Crumb[] = [
          { label: 'Home', path: '/' },
          { label: 'Blog', path: '/blog' },
          { label: post.titleText, path: route.path },
        ];
        return {
          head: this.head(route, post.titleText, post.excerptText, {
            ogType: 'article',
            ogImageUrl: imageUrl,
            ogImageAlt: preview.alt,
            jsonLd: [blogPosting(this.config, post, url, imageUrl), breadcrumbList(breadcrumb, this.absolute)],
          }),
          inputs: { post: card, breadcrumb, contentHtml },
          body: () => createElement(BlogPostPage, { post: card, contentHtml, breadcrumb }),
        };
      }
      case 'not-found': {
        const notFound = this.content.site.notFound;
        return {
          head: { ...this.head(route, notFound.title, notFound.message), canonicalUrl: undefined },
          ...pageBody(NotFoundPage, notFound),
        };
      }
    }
  }

  /** A post's card appears on its page and on a list page: made once. */
  private readonly postCards = new WeakMap<Post, PostCard>();

  private postCard(post: Post): PostCard {
    let card = this.postCards.get(post);
    if (!card) {
      card = {
        // Percent-encoded as WordPress gives it, so non-ASCII slugs make plain ASCII links.
        path: encodeURI(postPath(post.slug)),
        titleHtml: post.titleHtml,
        titleText: post.titleText,
        excerptHtml: post.excerptHtml,
        date: formatDay(post.date),
        dateIso: post.date.toISOString(),
        image: post.image && this.imageView(post.image.src, post.image.alt, post.image),
        unpublished:
          post.unpublished &&
          (post.unpublished === 'draft'
            ? 'Draft: not published'
            : `Scheduled for ${formatDay(post.date)}: not published yet`),
      };
      this.postCards.set(post, card);
    }
    return card;
  }

  /** An image with the formats and widths the image stage made of it, or as it is when it made none. */
  private imageView(src: string, alt: string, size?: { width: number; height: number }): ImageView | undefined {
    const set = this.options.images.sets.get(src);
    if (set) return { ...set, alt };
    return size && { src, alt, ...size, sources: [] };
  }

  /** The images of a post's body as pictures in their formats, loaded when scrolled to. */
  private bodyImages(html: string): string {
    return html.replace(/<img\b[^>]*>/g, (tag) => {
      const attribute = (name: string) => {
        const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
        return value === undefined ? undefined : decodeHTML(value);
      };
      const image = this.imageView(attribute('src') ?? '', attribute('alt') ?? '');
      return image
        ? renderToString(createElement(Picture, { image, sizes: POST_IMAGE_SIZES, id: attribute('id') }))
        : tag;
    });
  }

  private sections(sections: Section[]): SectionView[] {
    return sections.map((section): SectionView => {
      switch (section.kind) {
        case 'guarantees':
          return { ...section, items: this.content.site.guarantees };
        case 'picker':
          return {
            kind: 'picker',
            id: section.id,
            heading: section.heading,
            intro: section.intro,
            defaultId: section.defaultSubCategory,
            groups: pickerGroups(this.content.catalogue, this.services, this.pathOfSub, this.config.checkoutUrl),
          };
        case 'service-list':
          return { ...section, groups: serviceListGroups(this.content.catalogue, this.services, this.pathOfSub) };
        case 'cards':
        case 'steps':
          return {
            ...section,
            items: section.items.map((item) => ({
              ...item,
              platform: item.path && this.platformOfPath.get(item.path),
            })),
          };
        default:
          return section;
      }
    });
  }

  /** Hero buttons; one linking to a service page carries its platform's mark. */
  private heroButtons(buttons: { label: string; path: string }[]): HeroView['buttons'] {
    return buttons.map((button) => ({ ...button, platform: this.platformOfPath.get(button.path) }));
  }
}
