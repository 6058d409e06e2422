import * as z from 'zod';
import { readCmsCache, writeCmsCache } from '../cms/cms-cache.js';
import { isValidPrice, PRICE_CEILING } from '../catalogue/catalogue-index.js';
import { defaultCmsOptions } from '../cms/retry.js';
import { fetchAllPosts, PER_PAGE } from '../cms/wordpress-client.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError } from '../errors/storefront-error.js';

/**
 * A product of the WooCommerce Store API (`/wp-json/wc/store/v1/products`), the fields the
 * check reads; see ProductSchema.php in WooCommerce. Prices are strings of a whole number of the
 * currency's minor unit ("1899" for £18.99, with `currency_minor_unit` 2), `price` the one
 * charged (the sale price while on sale). The prices are only typed loosely here: each product's
 * are read by `chargedPrice`, so one absurd price is a problem of that product, not of the list.
 */
const storeProduct = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  permalink: z.string(),
  is_purchasable: z.boolean(),
  is_in_stock: z.boolean(),
  prices: z.object({
    price: z.union([z.string(), z.number()]),
    regular_price: z.union([z.string(), z.number()]),
    sale_price: z.union([z.string(), z.number()]),
    currency_code: z.string(),
    currency_minor_unit: z.number(),
  }),
});
export type StoreProduct = z.infer<typeof storeProduct>;

/**
 * Text from the checkout (a product's name, permalink, price) as a message may show it: quoted
 * and escaped as JSON (no control character, no line break), and cut short. The checkout's text
 * is never trusted: it is never made into a path, YAML or a pattern either.
 */
export function quoted(text: unknown): string {
  const value = String(text);
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** A currency code as the Store API writes it (ISO 4217), bare; anything else quoted. */
export function currencyOf(code: string): string {
  return /^[A-Z]{3}$/.test(code) ? code : quoted(code);
}

/** The price a product charges, in major units, or why it is no price the catalogue can show. */
export type Charged = { price: number; onSale: boolean } | { refused: string };

/**
 * The price a purchasable product charges, read as WooCommerce writes it: `prices.price` (and
 * `regular_price`, `sale_price`) a string of a whole number of minor units, scaled by
 * `currency_minor_unit`, in `currency_code`. Refused: another currency than the catalogue's, a
 * price that is not a whole number of minor units, zero or less, with more decimals than pence,
 * or at or above the catalogue's own ceiling (PRICE_CEILING, as content/catalogue.yaml's prices).
 */
export function chargedPrice(product: StoreProduct, currency: string): Charged {
  const { prices } = product;
  if (prices.currency_code !== currency)
    return { refused: `is priced in ${currencyOf(prices.currency_code)}, not ${currency}` };
  const unit = prices.currency_minor_unit;
  if (!Number.isInteger(unit) || unit < 0 || unit > 4)
    return { refused: `gives its prices in minor units of ${quoted(unit)} decimals, not 0 to 4` };
  const whole = (value: unknown) => typeof value === 'string' && /^[0-9]+$/.test(value);
  for (const key of ['price', 'regular_price', 'sale_price'] as const) {
    if (!whole(prices[key]))
      return { refused: `has a ${key} of ${quoted(prices[key])}, not a whole number of minor units (pence)` };
  }
  const minor = Number(prices.price);
  const price = minor / 10 ** unit;
  if (minor <= 0) return { refused: `charges ${quoted(prices.price)} minor units, nothing or less` };
  if (price >= PRICE_CEILING)
    return {
      refused:
        `charges ${quoted(prices.price)} minor units, ` +
        `at or above the catalogue's ceiling of £${PRICE_CEILING.toLocaleString('en-GB')}`,
    };
  if (!isValidPrice(price))
    return { refused: `charges ${quoted(prices.price)} minor units, not a whole number of pence` };
  const onSale = Number(prices.sale_price) !== Number(prices.regular_price) && minor === Number(prices.sale_price);
  return { price, onSale };
}

/** The Store API's products collection of a checkout site. */
export function productsUrl(checkoutUrl: string): string {
  return `${checkoutUrl}/wp-json/wc/store/v1/products`;
}

/**
 * The client's problems (SF201, all it reports) with the checkout's hint: its own speak of the
 * blog (CMS_API_URL, build --stale-ok). The client's error is kept as the cause, for --debug.
 */
function asCheckoutError(
  error: StorefrontError,
  rewrite: (message: string) => string = (message) => message,
): StorefrontError {
  return new StorefrontError(
    error.problems.map(({ code: _code, message, hint: _hint, ...place }) =>
      problem('checkoutUnreachable', { message: rewrite(message) }, place),
    ),
    undefined,
    { cause: error },
  );
}

/**
 * Whether the checkout answers the Store API: its first product, asked for with the WordPress
 * blog's client (its time limit, size limit, retries; no redirect followed). Only a 404 on the
 * Store API's route means there is none, and the check falls to the plain mode. Anything else
 * than a JSON list (a redirect, HTML, `{}`, an answer too large, 401, 5xx after the retries)
 * fails the check rather than passing it in the plain mode, which compares no price.
 */
export async function hasStoreApi(checkoutUrl: string): Promise<boolean> {
  const url = productsUrl(checkoutUrl);
  try {
    const probe = await fetchAllPosts({
      apiUrl: url,
      timeoutMs: defaultCmsOptions.timeoutMs,
      retry: defaultCmsOptions.retry,
      concurrency: 1,
      maxPosts: PER_PAGE,
      collection: { pageUrl: () => `${url}?per_page=1`, noun: "checkout's products", absentOn404: true },
    });
    return !probe.absent;
  } catch (error) {
    if (!(error instanceof StorefrontError)) throw error;
    throw asCheckoutError(error, (message) =>
      message.replace(
        /^The checkout's products could not be fetched after/,
        'The checkout could not be asked for its products after',
      ),
    );
  }
}

export interface StoreProducts {
  products: StoreProduct[];
  source: 'network' | 'cache';
}

/**
 * Every product of the checkout's Store API, with the WordPress blog's client: the same paging,
 * retries, time limit and size limits, saved under .cache/cms/ (`--offline` reads it from there).
 */
export async function fetchStoreProducts(root: string, checkoutUrl: string, offline: boolean): Promise<StoreProducts> {
  const url = productsUrl(checkoutUrl);
  let items: unknown[];
  let source: StoreProducts['source'] = 'network';
  if (offline) {
    const entry = await readCmsCache(root, url, 'products');
    if (!entry) {
      throw new StorefrontError(problem('checkoutNoCachedProducts', {}, { url }));
    }
    items = entry.items;
    source = 'cache';
  } else {
    try {
      items = (
        await fetchAllPosts({
          apiUrl: url,
          timeoutMs: defaultCmsOptions.timeoutMs,
          retry: defaultCmsOptions.retry,
          concurrency: defaultCmsOptions.concurrency,
          maxPosts: 10_000,
          collection: { pageUrl: (page) => `${url}?per_page=${PER_PAGE}&page=${page}`, noun: "checkout's products" },
        })
      ).items;
    } catch (error) {
      if (!(error instanceof StorefrontError)) throw error;
      throw asCheckoutError(error);
    }
    await writeCmsCache(root, { apiUrl: url, fetchedAt: new Date().toISOString(), items }, 'products');
  }
  const products: StoreProduct[] = [];
  items.forEach((item, index) => {
    const parsed = storeProduct.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const values = { path: issue.path.join('.'), issue: issue.message };
      throw new StorefrontError(problem('checkoutProductMissingField', values, { url, field: `[${index}]` }));
    }
    products.push(parsed.data);
  });
  return { products, source };
}
