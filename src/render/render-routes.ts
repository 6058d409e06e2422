import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { indexCatalogue, type Service } from '../catalogue/catalogue-index.js';
import type { Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import type { Post } from '../content/post.js';
import type { Asset } from '../output/assets.js';
import type { Section } from '../content/schemas.js';
import { codes } from '../errors/codes.js';
import { NOTHING_WRITTEN, StorefrontError, type Problem } from '../errors/storefront-error.js';
import { absoluteUrl, blogListPath, postPath, type Route } from '../routes/route-table.js';
import { Document } from '../../templates/Document.js';
import { Footer } from '../../templates/Footer.js';
import { Header } from '../../templates/Header.js';
import { BlogListPage } from '../../templates/pages/BlogListPage.js';
import { BlogPostPage } from '../../templates/pages/BlogPostPage.js';
import { ContentPage } from '../../templates/pages/ContentPage.js';
import { NotFoundPage } from '../../templates/pages/NotFoundPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { TextPage } from '../../templates/pages/TextPage.js';
import type { Crumb, Frame, Head, HeroView, PostCard, SectionView } from '../../templates/view-model.js';
import { packageTiles, pickerGroups, serviceCard } from './catalogue-views.js';
import { makeFrameFactory } from './frame.js';
import { hashText } from '../util/hash.js';
import { blogPosting, breadcrumbList, organization, serviceWithOffer, webSite } from './json-ld.js';

export interface RenderOptions {
  stylesheetHref: string;
  scriptHref: string;
  ogImagePath: string;
  now: Date;
}

/** Where every page finds the stylesheet, the script and the Open Graph image. */
export function renderOptions(stylesheet: Asset, script: Asset, now: Date): RenderOptions {
  return { stylesheetHref: `/${stylesheet.file}`, scriptHref: `/${script.file}`, ogImagePath: '/assets/og-image.png', now };
}

/** What pages are rendered from, as plain data: the posts worker gets a copy (without the posts). */
export interface RenderSetup {
  config: Config;
  content: SiteContent;
  options: RenderOptions;
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A date as British English writes it, "7 January 2024", in UTC: what Intl.DateTimeFormat('en-GB')
 * gives, at a tenth of its cost (a large blog formats thousands).
 */
export function formatDay(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** What the build does with each page: write a rendered one, or keep the one already written. */
export interface PageSink {
  /** False when nothing is kept between builds (--no-cache): no key is computed. */
  readonly keyed: boolean;
  /**
   * True when the page written by an earlier build for this key can stay as it is. The key
   * changes whenever anything the page shows changes (see `RenderContext.key`).
   */
  isUnchanged(route: Route, key: string): boolean;
  /** Whether `isUnchanged` would say true, without keeping anything. */
  wouldKeep(route: Route, key: string): boolean;
  kept(route: Route, key: string): void;
  rendered(route: Route, key: string, html: string): Promise<void>;
}

/**
 * Turns each route into a complete HTML document and hands it to the sink (which writes it),
 * unless the sink still has the page of an earlier build with the same key. Rendering itself
 * is pure: no file or network access. Returns the time spent rendering. A page that cannot be
 * rendered fails the build after all pages were tried.
 */
export async function renderRoutes(
  config: Config,
  content: SiteContent,
  routes: readonly Route[],
  options: RenderOptions,
  sink: PageSink,
): Promise<number> {
  const context = new RenderContext(config, content, options);
  if (content.cachedBodies && sink.keyed) {
    // The bodies of cached posts whose pages will be rendered are read together (on two threads
    // when many: a change to site.yaml renders every post page again), not one by one below.
    const rendered = routes.filter((route) => route.kind === 'blog-post' && !sink.wouldKeep(route, context.blogKey(route)!));
    await content.cachedBodies.load(rendered.map((route) => (route as Extract<Route, { kind: 'blog-post' }>).post));
  }
  const failures: Problem[] = [];
  let renderMs = 0;
  for (const route of routes) {
    let html: string;
    let key: string;
    try {
      const t0 = performance.now();
      // A blog page's key is known before its props are built (see `blogKey`), other pages' after.
      const blogKey = sink.keyed ? context.blogKey(route) : undefined;
      const page = blogKey !== undefined && sink.isUnchanged(route, blogKey) ? undefined : context.prepare(route);
      key = blogKey ?? (page && sink.keyed ? context.key(route, page) : '');
      const unchanged = !page || (blogKey === undefined && sink.keyed && sink.isUnchanged(route, key));
      if (unchanged) {
        renderMs += performance.now() - t0;
        sink.kept(route, key);
        continue;
      }
      html = context.html(page);
      renderMs += performance.now() - t0;
    } catch (err) {
      failures.push({
        code: codes.renderFailed,
        file: route.source,
        message: `The page ${route.path} could not be rendered: ${(err as Error).message}`,
        hint: 'This is a bug in a template or in the data it was given; run with --debug for the stack.',
      });
      continue;
    }
    if (failures.length === 0) await sink.rendered(route, key, html);
  }
  if (failures.length) throw new StorefrontError(failures, NOTHING_WRITTEN);
  return renderMs;
}

/** A page's body whose props are all it shows. */
function pageBody<P extends object>(component: FunctionComponent<P>, props: P): Pick<PreparedPage, 'inputs' | 'body'> {
  return { inputs: props, body: () => createElement(component, props) };
}

/** A page ready to render: its frame and head, and its body as data and as an element. */
interface PreparedPage {
  frame: Frame;
  head: Head;
  /** Everything the body shows, as plain data: the page's props, with a post's body by its key. */
  inputs: unknown;
  body: () => ReactElement;
}

class RenderContext {
  private readonly services: Map<number, Service>;
  private readonly pathOfSub: Map<number, string>;
  private readonly frameFor: (path: string) => Frame;

  constructor(
    private readonly config: Config,
    private readonly content: SiteContent,
    private readonly options: RenderOptions,
  ) {
    this.services = indexCatalogue(content.catalogue);
    this.pathOfSub = new Map(content.services.map((s) => [s.page.subCategory, s.page.path]));
    this.frameFor = makeFrameFactory(config, content, { stylesheetHref: options.stylesheetHref, scriptHref: options.scriptHref }, options.now);
    this.sharedFrameKey = hashText(JSON.stringify(this.frameFor('')));
    this.blogSharedKey = hashText(this.sharedFrameKey, JSON.stringify(config), options.ogImagePath, JSON.stringify(content.site));
  }

  absolute = (path: string): string => absoluteUrl(this.config.siteUrl, path);

  /** Header and footer HTML by the parts of the frame they depend on (see `shellKey`). */
  private readonly shells = new Map<string, { header: string; footer: string }>();

  /** The key of everything the frame shows but the path; the same for every page (see makeFrameFactory). */
  private readonly sharedFrameKey: string;

  /** What every blog page is made from besides its posts: the frame, the settings and site.yaml (blog titles, texts). */
  private readonly blogSharedKey: string;

  /**
   * The key of a blog page made from what it is built from by reference, as make and Hugo
   * compare files by stamp: a post's page by its contentKey, which changes with any of its
   * fields, a list page by its posts' cardKeys, which do not change with their bodies.
   * Computing it costs a hash, where `key` first builds the page's props; a large blog has
   * thousands of such pages. Undefined for the site's other pages (a few), keyed by `key`.
   */
  blogKey(route: Route): string | undefined {
    if (route.kind !== 'blog-post' && route.kind !== 'blog-list') return undefined;
    let key = this.blogKeys.get(route);
    if (key === undefined) {
      // A post page's key is its parts side by side, not their hash: a large blog has thousands,
      // and hashing them was most of a rebuild's time spent on kept pages. The path is not part
      // of it: the key is only compared with the key of the same path's page.
      key =
        route.kind === 'blog-post'
          ? `${this.blogSharedKey}.${route.indexable ? 'i' : 'n'}.${route.post.contentKey}`
          : hashText(this.blogSharedKey, route.kind, route.path, String(route.indexable), `${route.pageNumber}/${route.pageCount}`, ...route.posts.map((p) => p.cardKey));
      this.blogKeys.set(route, key);
    }
    return key;
  }

  private readonly blogKeys = new Map<Route, string>();

  prepare(route: Route): PreparedPage {
    const frame = this.frameFor(route.path);
    return { frame, ...this.page(route, frame) };
  }

  /**
   * A hash of everything the page's HTML is made from; the code that makes it is in the build
   * cache's fingerprint. Equal keys, byte-identical pages.
   */
  key(route: Route, page: PreparedPage): string {
    return hashText(
      this.sharedFrameKey,
      route.kind,
      page.frame.currentPath,
      String(page.frame.servicesActive),
      JSON.stringify(page.head),
      JSON.stringify(page.inputs),
    );
  }

  html({ frame, head, body }: PreparedPage): string {
    const key = shellKey(frame);
    let shell = this.shells.get(key);
    if (!shell) {
      shell = { header: renderToString(createElement(Header, { frame })), footer: renderToString(createElement(Footer, { frame })) };
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
    return `<!DOCTYPE html>${renderToString(element)}`.replace(HEADER_SLOT, () => shell.header).replace(FOOTER_SLOT, () => shell.footer);
  }

  private head(route: Route, title: string, description: string, extra: Partial<Head> = {}): Head {
    return {
      title: `${title} | ${this.config.brandName}`,
      description,
      canonicalUrl: this.absolute(route.path),
      ogImageUrl: this.absolute(this.options.ogImagePath),
      ogType: 'website',
      noindex: !route.indexable,
      jsonLd: [],
      ...extra,
    };
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
        const hero: HeroView = { heading: page.hero.heading, intro: page.hero.intro, buttons: page.hero.buttons };
        const isHome = route.path === '/';
        return {
          head: this.head(route, page.title, page.description, {
            jsonLd: isHome ? [organization(this.config, this.absolute), webSite(this.config, this.absolute)] : [],
          }),
          ...pageBody(ContentPage, { frame, hero, sections: this.sections(page.sections), large: isHome }),
        };
      }
      case 'service': {
        const { page } = route;
        const service = this.services.get(page.subCategory)!;
        const breadcrumb = this.crumbs(page.breadcrumb, page.path);
        const url = this.absolute(page.path);
        const jsonLd: object[] = [breadcrumbList(breadcrumb, this.absolute)];
        if (page.structuredData) {
          jsonLd.push(
            organization(this.config, this.absolute),
            webSite(this.config, this.absolute),
            serviceWithOffer(this.config, service, page.hero.heading, page.description, url),
          );
        }
        const hero: HeroView = {
          heading: page.hero.heading,
          intro: page.hero.intro,
          buttons: page.hero.buttons,
          breadcrumb,
          ratingLine: page.hero.ratingLine,
        };
        return {
          head: this.head(route, page.title, page.description, { jsonLd }),
          ...pageBody(ServicePage, {
            frame,
            hero,
            packagesHeading: page.packagesHeading,
            packages: packageTiles(service, this.config.checkoutUrl),
            packagesNote: page.packagesNote,
            supportTile: page.supportTile,
            publicAccountNotice: this.content.site.publicAccountNotice,
            sections: this.sections(page.sections),
            faqHeading: page.faqHeading,
            faq: page.faq,
            crossSellHeading: page.crossSellHeading,
            crossSells: page.crossSells.map((id) => serviceCard(this.services.get(id)!, this.pathOfSub.get(id)!)),
          }),
        };
      }
      case 'text': {
        const { page } = route;
        return {
          head: this.head(route, page.title, page.description),
          ...pageBody(TextPage, {
            hero: { heading: page.heading, buttons: [], breadcrumb: this.crumbs(page.title, page.path) },
            updated: formatDay(page.updated),
            updatedIso: page.updated.toISOString().slice(0, 10),
            body: route.body,
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
        const imageUrl = post.image ? new URL(post.image.src, `${this.config.siteUrl}/`).href : this.absolute(this.options.ogImagePath);
        const breadcrumb: Crumb[] = [
          { label: 'Home', path: '/' },
          { label: 'Blog', path: '/blog' },
          { label: post.titleText, path: route.path },
        ];
        return {
          head: this.head(route, post.titleText, post.excerptText, {
            ogType: 'article',
            ogImageUrl: imageUrl,
            jsonLd: [blogPosting(this.config, post, url, imageUrl), breadcrumbList(breadcrumb, this.absolute)],
          }),
          // The body is keyed by the post's contentKey and read only when the page is rendered.
          inputs: { post: card, breadcrumb, contentKey: post.contentKey },
          body: () => createElement(BlogPostPage, { post: card, contentHtml: post.contentHtml, breadcrumb }),
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
        image: post.image,
      };
      this.postCards.set(post, card);
    }
    return card;
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
        default:
          return section;
      }
    });
  }
}
