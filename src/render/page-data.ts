import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { indexCatalogue, type Service } from '../catalogue/catalogue-index.js';
import { siteRoot, type Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import type { Post } from '../content/post.js';
import type { SiteImages } from '../images/process-images.js';
import type { ShareCard } from '../images/share-cards.js';
import { absoluteUrl, type Route, type RouteKind } from '../routes/route-table.js';
import type { Crumb, Head, Html as HtmlValue, PackageOffer, PostCard } from '../../templates/view-model.js';
import { escapeMarkup } from '../util/escape.js';
import { deliveryPace, packageTiles, platformOfPaths } from './catalogue-views.js';
import { postCardMaker } from './post-card.js';
import { Ratings } from './ratings.js';

/** Where the terms say what the platforms' rules mean, for a service that has no page to answer it. */
const RULES_IN_TERMS = '/term-of-service#our-services';

/** The route of one kind, as the module of that kind's page (pages/) takes it. */
export type RouteOf<K extends RouteKind> = Extract<Route, { kind: K }>;

/** A page's head, and its body as data and as an element: what each kind's module (pages/) makes. */
export interface PageParts {
  head: Head;
  /** Everything the body shows, as plain data: the page's props. */
  inputs: unknown;
  body: () => ReactElement;
}

/** A page's body whose props are all it shows. */
export function pageBody<P extends object>(
  component: FunctionComponent<P>,
  props: P,
): Pick<PageParts, 'inputs' | 'body'> {
  return { inputs: props, body: () => createElement(component, props) };
}

/** What the pages of one build share, made once: the catalogue indexed, the ratings, the post cards. */
export class PageData {
  readonly services: Map<number, Service>;
  readonly pathOfSub: Map<number, string>;
  /** The platform slug of each service page's path: links to it show that platform's mark. */
  readonly platformOfPath: Map<string, string>;
  readonly ratings: Ratings;
  /**
   * What follows every grid of packages, the same under each: how VAT stands (by the trader's VAT
   * number) and the right to cancel. What precedes a grid is its `offer`.
   */
  readonly buyingTerms: HtmlValue[];
  /** A post's card appears on its page and on a list page: made once. */
  readonly postCard: (post: Post) => PostCard;

  constructor(
    readonly config: Config,
    readonly content: SiteContent,
    /** The posts' images in their formats and widths, and their share images (the image stage). */
    readonly images: Pick<SiteImages, 'sets' | 'shares'>,
    /** Each route's share card, its og:image unless it is a post with a share image (the cards stage). */
    private readonly shareCards: ReadonlyMap<string, ShareCard>,
  ) {
    this.services = indexCatalogue(content.catalogue);
    this.pathOfSub = new Map(content.services.map((s) => [s.page.subCategory, s.page.path]));
    this.platformOfPath = platformOfPaths(
      this.services,
      content.services.map((s) => s.page),
    );
    this.ratings = new Ratings(content.reviews);
    const { vat, cancellation } = content.site.beforeYouBuy;
    this.buyingTerms = [content.trader.vatNumber ? vat.registered : vat.notRegistered, cancellation];
    this.postCard = postCardMaker(images.sets);
  }

  /**
   * A sub-category's packages with the facts above them (site.yaml › beforeYouBuy): its platform's
   * rules, linked to the full answer on its service page (`#platform-rules` on that page itself,
   * `onPage`; without a page, the terms' section on the platforms' rules), and how delivery goes.
   */
  offer = (subCategory: number, onPage?: string): PackageOffer => {
    const service = this.services.get(subCategory)!;
    const { platformRules, delivery } = this.content.site.beforeYouBuy;
    const servicePath = this.pathOfSub.get(subCategory);
    const answer =
      servicePath === undefined ? RULES_IN_TERMS : `${servicePath === onPage ? '' : servicePath}#platform-rules`;
    const rules = platformRules[service.platform.slug]!.html.replace(
      /<\/p>\s*$/,
      ` <a href="${escapeMarkup(answer)}">What this means</a></p>`,
    );
    return {
      rules: { html: rules },
      delivery: service.sub.deliveryPerDay ? delivery.atPace : delivery.inFull,
      pace: service.sub.deliveryPerDay && deliveryPace(service.sub.deliveryPerDay, service.sub.name),
      packages: packageTiles(service, this.config.checkoutUrl),
    };
  };

  absolute = (path: string): string => absoluteUrl(siteRoot(this.config), path);

  head(route: Route, title: string, description: string, extra: Partial<Head> = {}): Head {
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
  shareCard(route: Route): ShareCard {
    const card = this.shareCards.get(route.path);
    if (!card) throw new Error(`no share card was made for ${route.path}`);
    return card;
  }

  crumbs(label: string, path: string): Crumb[] {
    return [
      { label: 'Home', path: '/' },
      { label, path },
    ];
  }
}
