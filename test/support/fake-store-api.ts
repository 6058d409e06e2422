/**
 * A real HTTP server on 127.0.0.1 that answers like a WooCommerce checkout site: the Store
 * API's products collection (`/wp-json/wc/store/v1/products`, read from WooCommerce's
 * ProductSchema.php and Routes/V1/Products.php: per_page 1-100, X-WP-Total and X-WP-TotalPages,
 * an empty list past the last page, prices as strings in the currency's minor unit) and the
 * product pages at /product/{slug}/ (a request without the slash is redirected to it, as
 * WordPress's canonical redirect does). `storeApi = false` makes it a checkout without it;
 * `answer` makes its Store API route a hostile or broken one (a redirect, HTML, `{}`, an
 * endless answer).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server.js';

/** What the Store API route answers instead of the products: `bytes` streams a JSON list of that size (blanks). */
export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  bytes?: number;
}

export interface FakeProduct {
  id: number;
  name: string;
  slug: string;
  /** Minor units: "1899" for £18.99. */
  regular_price: string;
  /** '' when not on sale. */
  sale_price: string;
  currency_code: string;
  is_purchasable: boolean;
  is_in_stock: boolean;
  /** The product's own address, when it is not /product/{slug}/ of this site. */
  permalink?: string;
  /** Another `prices.price` than the sale or regular price (a hostile checkout). */
  price?: string;
}

interface CatalogueFile {
  platforms: {
    name: string;
    sub: { name: string; packages: { id: number; quantity: number; price: number; slug: string }[] }[];
  }[];
}

/** One purchasable, in-stock GBP product per package of the catalogue, priced as it says. */
export function productsOf(catalogue: CatalogueFile): FakeProduct[] {
  return catalogue.platforms.flatMap((platform) =>
    platform.sub.flatMap((sub) =>
      sub.packages.map((pkg) => ({
        id: pkg.id,
        name: `${pkg.quantity} ${platform.name} ${sub.name}`,
        slug: pkg.slug,
        regular_price: String(Math.round(pkg.price * 100)),
        sale_price: '',
        currency_code: 'GBP',
        is_purchasable: true,
        is_in_stock: true,
      })),
    ),
  );
}

export class FakeStoreApi extends LoopbackServer {
  /** False: no Store API (WooCommerce absent or the API switched off): its path answers 404. */
  storeApi = true;
  /** The Store API answers 503, as a WooCommerce site in trouble does; 'pages': only the pages of 100. */
  failing: boolean | 'pages' = false;
  /** The REST API is closed to visitors (a security plugin): 401 rest_not_logged_in. */
  closed = false;
  /** Slugs whose product page answers HEAD with 405, as some servers do. */
  readonly headRefused = new Set<string>();
  readonly requests: string[] = [];
  /** Answered on the Store API's route (any query) instead of the products. */
  answer: FakeAnswer | undefined;

  constructor(public products: FakeProduct[]) {
    super();
  }

  protected handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.origin);
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (
      url.pathname === '/wp-json/wc/store/v1/products' &&
      (this.failing === true || (this.failing === 'pages' && url.searchParams.get('per_page') === '100'))
    ) {
      res
        .writeHead(503, { 'Content-Type': 'text/html; charset=UTF-8', 'Retry-After': '0' })
        .end('<!doctype html><title>Service Unavailable</title>');
      return;
    }
    if (url.pathname === '/wp-json/wc/store/v1/products' && this.closed) {
      res.writeHead(401, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(
        JSON.stringify({
          code: 'rest_not_logged_in',
          message: 'You are not currently logged in.',
          data: { status: 401 },
        }),
      );
      return;
    }
    if (url.pathname === '/wp-json/wc/store/v1/products' && this.answer) {
      this.answer_(this.answer, res);
      return;
    }
    if (url.pathname === '/wp-json/wc/store/v1/products' && this.storeApi) {
      this.products_(url, res);
      return;
    }
    const page = /^\/product\/([^/]+)(\/?)$/.exec(url.pathname);
    const product = page && this.products.find((p) => p.slug === decodeURIComponent(page[1]!) && !p.permalink);
    if (page && product && !page[2]) {
      res.writeHead(301, { Location: `/product/${page[1]}/` }).end();
      return;
    }
    if (page && product) {
      if (req.method === 'HEAD' && this.headRefused.has(product.slug)) {
        res.writeHead(405, { Allow: 'GET' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end(
        req.method === 'HEAD' ? undefined : `<!doctype html><title>${product.name}</title><h1>${product.name}</h1>`,
      );
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8' });
    res.end(req.method === 'HEAD' ? undefined : '<!doctype html><title>Page not found</title>');
  }

  private answer_(answer: FakeAnswer, res: ServerResponse): void {
    res.writeHead(answer.status, answer.headers);
    if (answer.bytes === undefined) {
      res.end(answer.body);
      return;
    }
    // A JSON list of blanks, a megabyte at a time as the reader takes it, until the reader hangs up.
    let left = answer.bytes - 2;
    const chunk = ' '.repeat(1024 * 1024);
    res.on('error', () => undefined);
    res.on('close', () => (left = -1));
    res.write('[');
    const more = (): void => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.slice(0, left);
        left -= piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      if (left === 0) res.end(']');
    };
    more();
  }

  private products_(url: URL, res: ServerResponse): void {
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100 || !Number.isInteger(page) || page < 1) {
      res.writeHead(400, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(
        JSON.stringify({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): per_page',
          data: { status: 400 },
        }),
      );
      return;
    }
    // Newest first, WooCommerce's default order (date, desc): here the highest id.
    const sorted = [...this.products].sort((a, b) => b.id - a.id);
    const total = sorted.length;
    const pages = Math.ceil(total / perPage);
    const body = sorted.slice((page - 1) * perPage, page * perPage).map((p) => this.toJson(p));
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-WP-Total': String(total),
      'X-WP-TotalPages': String(pages),
    });
    res.end(JSON.stringify(body));
  }

  private toJson(p: FakeProduct): Record<string, unknown> {
    const onSale = p.sale_price !== '';
    const price = p.price ?? (onSale ? p.sale_price : p.regular_price);
    const symbol = p.currency_code === 'GBP' ? '£' : p.currency_code === 'USD' ? '$' : '';
    return {
      id: p.id,
      name: p.name,
      slug: p.slug,
      parent: 0,
      type: 'simple',
      variation: '',
      permalink: p.permalink ?? `${this.origin}/product/${encodeURIComponent(p.slug)}/`,
      sku: '',
      short_description: '',
      description: `<p>${p.name}</p>`,
      on_sale: onSale,
      prices: {
        price,
        regular_price: p.regular_price,
        sale_price: onSale ? p.sale_price : p.regular_price,
        price_range: null,
        currency_code: p.currency_code,
        currency_symbol: symbol,
        currency_minor_unit: 2,
        currency_decimal_separator: '.',
        currency_thousand_separator: ',',
        currency_prefix: symbol,
        currency_suffix: '',
      },
      price_html: `<span class="amount">${symbol}${(Number(price) / 100).toFixed(2)}</span>`,
      average_rating: '0',
      review_count: 0,
      images: [],
      categories: [],
      tags: [],
      brands: [],
      attributes: [],
      variations: [],
      grouped_products: [],
      has_options: false,
      is_purchasable: p.is_purchasable,
      is_in_stock: p.is_in_stock,
      is_on_backorder: false,
      low_stock_remaining: null,
      stock_availability: {
        text: p.is_in_stock ? '' : 'Out of stock',
        class: p.is_in_stock ? 'in-stock' : 'out-of-stock',
      },
      sold_individually: false,
      add_to_cart: {
        text: 'Add to cart',
        description: `Add “${p.name}” to your cart`,
        url: `?add-to-cart=${p.id}`,
        single_text: 'Add to cart',
        minimum: 1,
        maximum: 9999,
        multiple_of: 1,
      },
      extensions: {},
    };
  }
}
