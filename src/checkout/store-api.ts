import * as z from 'zod';
import { readCmsCache, writeCmsCache } from '../cms/cms-cache.js';
import { defaultCmsOptions, RetryableError, withRetry } from '../cms/retry.js';
import { fetchAllPosts, PER_PAGE } from '../cms/wordpress-client.js';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';

/**
 * A product of the WooCommerce Store API (`/wp-json/wc/store/v1/products`), the fields the
 * check reads; see ProductSchema.php in WooCommerce. Prices are strings in the currency's minor
 * unit ("1899" for £18.99), `price` the one charged (the sale price while on sale).
 */
const storeProduct = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  permalink: z.string(),
  is_purchasable: z.boolean(),
  is_in_stock: z.boolean(),
  prices: z.object({
    price: z.string(),
    regular_price: z.string(),
    sale_price: z.string(),
    currency_code: z.string(),
    currency_minor_unit: z.number().int().min(0).max(4),
  }),
});
export type StoreProduct = z.infer<typeof storeProduct>;

/** The Store API's products collection of a checkout site. */
export function productsUrl(checkoutUrl: string): string {
  return `${checkoutUrl}/wp-json/wc/store/v1/products`;
}

/**
 * Whether the checkout answers the Store API: its first product page is a JSON list. A site
 * without WooCommerce (or with the Store API switched off) answers 404 or a page of HTML. A
 * checkout that does not answer at all, or answers 5xx, fails the check (after the CMS's
 * retries) rather than passing it in the plain mode, which compares no price.
 */
export async function hasStoreApi(checkoutUrl: string): Promise<boolean> {
  const url = `${productsUrl(checkoutUrl)}?per_page=1`;
  try {
    return await withRetry(async () => {
      let response: Response;
      try {
        response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(defaultCmsOptions.timeoutMs) });
      } catch (error) {
        throw new RetryableError((error as Error).message);
      }
      if (response.status >= 500 || response.status === 429 || response.status === 408) throw new RetryableError(`HTTP ${response.status}`);
      // Only a 404, or a page that is no JSON list, means no Store API; a 401 or 403 (the REST
      // API closed to visitors, a firewall) must fail the check, not pass it without prices.
      if (response.status === 404) return false;
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return Array.isArray(await response.json().catch(() => undefined));
    }, defaultCmsOptions.retry);
  } catch (error) {
    throw new StorefrontError({
      code: codes.cmsFetchFailed,
      url,
      message: `The checkout could not be asked for its products after ${defaultCmsOptions.retry.retries + 1} attempts: ${(error as Error).message}.`,
      hint: 'Check CHECKOUT_URL and that the checkout site is up; the check cannot tell its prices without it.',
    });
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
      throw new StorefrontError({
        code: codes.cmsNoCache,
        url,
        message: 'There is no cached copy of the checkout\'s products.',
        hint: 'Run the command once with the checkout reachable; it saves the products under .cache/cms/.',
      });
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
          collection: { pageUrl: (page) => `${url}?per_page=${PER_PAGE}&page=${page}`, noun: 'checkout\'s products' },
        })
      ).items;
    } catch (error) {
      // The client's hints speak of the blog (CMS_API_URL, build --stale-ok): these are the checkout's.
      if (!(error instanceof StorefrontError)) throw error;
      throw new StorefrontError(error.problems.map((problem) => ({ ...problem, hint: 'Check CHECKOUT_URL and that the checkout site is up and answers its WooCommerce Store API (/wp-json/wc/store/v1/products).' })));
    }
    await writeCmsCache(root, { apiUrl: url, fetchedAt: new Date().toISOString(), items }, 'products');
  }
  const products: StoreProduct[] = [];
  items.forEach((item, index) => {
    const parsed = storeProduct.safeParse(item);
    if (!parsed.success) {
      throw new StorefrontError({
        code: codes.cmsBadResponse,
        url,
        field: `[${index}]`,
        message: `A product of the Store API lacks a field the check needs: ${parsed.error.issues[0]!.path.join('.')} (${parsed.error.issues[0]!.message}).`,
        hint: 'The check reads id, name, slug, permalink, is_purchasable, is_in_stock and prices of /wc/store/v1/products.',
      });
    }
    products.push(parsed.data);
  });
  return { products, source };
}
