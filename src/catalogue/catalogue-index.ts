import type { Catalogue } from '../content/schemas.js';

export type Platform = Catalogue['platforms'][number];
export type SubCategory = Platform['sub'][number];
export type Package = SubCategory['packages'][number];

/** A sub-category with what every page derives from it: its platform and price range. */
export interface Service {
  platform: Platform;
  sub: SubCategory;
  /** Lowest and highest package price; undefined when nothing is listed. */
  lowPrice: number | undefined;
  highPrice: number | undefined;
}

/** Looks up sub-categories by id. Prices are never typed into pages: they come from here. */
export function indexCatalogue(catalogue: Catalogue): Map<number, Service> {
  const index = new Map<number, Service>();
  for (const platform of catalogue.platforms) {
    for (const sub of platform.sub) {
      const prices = sub.packages.map((p) => p.price);
      index.set(sub.id, {
        platform,
        sub,
        lowPrice: prices.length ? Math.min(...prices) : undefined,
        highPrice: prices.length ? Math.max(...prices) : undefined,
      });
    }
  }
  return index;
}

/** Where a package's Buy Now sends the visitor: the checkout's product page (WooCommerce's permalink). */
export function buyUrl(checkoutUrl: string, slug: string): string {
  return `${checkoutUrl}/product/${encodeURIComponent(slug)}`;
}

/** £1.89, £3.00, £160.00: always two decimals, in pounds. */
export function formatPrice(price: number): string {
  return `£${price.toFixed(2)}`;
}

const quantityFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** A whole quantity as en-GB writes it: 1000 → "1,000". */
export function formatQuantity(quantity: number): string {
  return quantityFormat.format(quantity);
}

/**
 * The quantity a checkout slug names: `1000-ig-likes` → 1000, `10k-ig-followers` → 10000.
 * Undefined when the slug does not start with a quantity.
 */
export function slugQuantity(slug: string): number | undefined {
  const match = /^(\d+)(k?)-/.exec(slug);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] ? 1000 : 1);
}

/** No package of the shop costs this much: a price at or above it is a typing mistake. */
export const PRICE_CEILING = 10_000;

/** A price is a positive amount of pounds with at most two decimals, below PRICE_CEILING. */
export function isValidPrice(price: number): boolean {
  return (
    Number.isFinite(price) &&
    price > 0 &&
    price < PRICE_CEILING &&
    Math.abs(Math.round(price * 100) - price * 100) < 1e-6
  );
}
