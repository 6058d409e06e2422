import { createHash } from 'node:crypto';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import { problem } from '../errors/catalogue.js';
import type { SiteImages } from '../images/process-images.js';
import type { ShareCard } from '../images/share-cards.js';
import { NOTHING_WRITTEN, StorefrontError, type Problem } from '../errors/storefront-error.js';
import type { Route } from '../routes/route-table.js';
import { Document } from '../../templates/Document.js';
import { Footer } from '../../templates/Footer.js';
import { Header } from '../../templates/Header.js';
import type { Frame } from '../../templates/view-model.js';
import { withBasePath } from './base-path.js';
import { makeFrameFactory } from './frame.js';
import { PageData, type PageParts } from './page-data.js';
import { blogListPage } from './pages/blog-list-page.js';
import { blogPostPage } from './pages/blog-post-page.js';
import { contentPage } from './pages/content-page.js';
import { notFoundPage } from './pages/not-found-page.js';
import { servicePage } from './pages/service-page.js';
import { textPage } from './pages/text-page.js';

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
  /** The first page's error, kept as the cause: --debug prints the template's stack. */
  let firstError: unknown;
  let ms = 0;
  let rendered = 0;
  for (const route of routes) {
    let result: { html: string; rendered: boolean };
    const t0 = performance.now();
    try {
      result = renderOrRecall(context, route, memo);
    } catch (err) {
      firstError ??= err;
      failures.push(
        problem('pageNotRendered', { path: route.path, error: (err as Error).message }, { file: route.source }),
      );
      continue;
    } finally {
      ms += performance.now() - t0;
    }
    if (result.rendered) rendered += 1;
    if (failures.length === 0) await page(route, result.html);
  }
  if (failures.length) throw new StorefrontError(failures, NOTHING_WRITTEN, { cause: firstError });
  if (memo) {
    const paths = new Set(routes.map((route) => route.path));
    for (const path of memo.keys()) if (!paths.has(path)) memo.delete(path);
  }
  return { rendered, ms };
}

/** The route's page: from the memo when its props are those the memo's page was rendered from, else rendered. */
function renderOrRecall(
  context: RenderContext,
  route: Route,
  memo: PageMemo | undefined,
): { html: string; rendered: boolean } {
  const prepared = context.prepare(route);
  const props =
    memo &&
    createHash('sha1')
      .update(JSON.stringify([route.kind, prepared.frame, prepared.head, prepared.inputs]))
      .digest('base64url');
  const before = memo?.get(route.path);
  if (before && before.props === props) return { html: before.html, rendered: false };
  const html = withBasePath(context.html(prepared), context.basePath);
  if (memo) memo.set(route.path, { props: props!, html });
  return { html, rendered: true };
}

/** A page ready to render: its frame, its head, and its body as data and as an element. */
interface PreparedPage extends PageParts {
  frame: Frame;
}

/** The kind's own module (pages/) makes the page's head and body. */
function pageParts(route: Route, data: PageData, frame: Frame): PageParts {
  switch (route.kind) {
    case 'page':
      return contentPage(route, data, frame);
    case 'service':
      return servicePage(route, data, frame);
    case 'text':
      return textPage(route, data);
    case 'blog-list':
      return blogListPage(route, data);
    case 'blog-post':
      return blogPostPage(route, data);
    case 'not-found':
      return notFoundPage(route, data);
  }
}

class RenderContext {
  private readonly data: PageData;
  private readonly frameFor: (path: string) => Frame;
  readonly basePath: string;

  constructor(config: Config, content: SiteContent, options: RenderOptions) {
    this.data = new PageData(config, content, options.images, options.shareCards);
    this.basePath = config.basePath;
    this.frameFor = makeFrameFactory(
      config,
      content,
      { stylesheetHref: options.stylesheetHref, scriptHref: options.scriptHref },
      options.now,
    );
  }

  /** Header and footer HTML by the parts of the frame they depend on (see `shellKey`). */
  private readonly shells = new Map<string, { header: string; footer: string }>();

  prepare(route: Route): PreparedPage {
    const frame = this.frameFor(route.path);
    return { frame, ...pageParts(route, this.data, frame) };
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
}
