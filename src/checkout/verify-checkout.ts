import { buyUrl, formatPrice } from '../catalogue/catalogue-index.js';
import type { Catalogue } from '../content/schemas.js';
import type { SourceFile } from '../util/source-file.js';
import { codes } from '../errors/codes.js';
import type { Problem } from '../errors/storefront-error.js';
import { runParallel } from '../util/run-parallel.js';
import { chargedPrice, currencyOf, quoted, type StoreProduct } from './store-api.js';

const CATALOGUE = 'content/catalogue.yaml';

/** A package of the catalogue with where it is written and the Buy Now address it makes. */
export interface CataloguePackage {
  name: string;
  slug: string;
  price: number;
  field: string;
  line?: number;
  buyUrl: string;
}

/** Every listed package, with its field path and line in the catalogue. */
export function cataloguePackages(catalogue: Catalogue, checkoutUrl: string, lineOf?: SourceFile['lineOf']): CataloguePackage[] {
  return catalogue.platforms.flatMap((platform, pi) =>
    platform.sub.flatMap((sub, si) =>
      sub.packages.map((pkg, ki) => ({
        name: `${platform.name} ${sub.name}, ${pkg.quantity.toLocaleString('en-GB')}`,
        slug: pkg.slug,
        price: pkg.price,
        field: `platforms[${pi}].sub[${si}].packages[${ki}]`,
        line: lineOf?.(['platforms', pi, 'sub', si, 'packages', ki]),
        buyUrl: buyUrl(checkoutUrl, pkg.slug),
      })),
    ),
  );
}

/**
 * What the checkout would do with each Buy Now of the catalogue, by its Store API: one problem
 * per defect, naming the catalogue's line and the product. A sale price counts, as it is the
 * price charged.
 */
export function verifyAgainstStore(packages: readonly CataloguePackage[], currency: string, checkoutUrl: string, products: readonly StoreProduct[]): Problem[] {
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  const problems: Problem[] = [];
  for (const pkg of packages) {
    const at = { file: CATALOGUE, field: `${pkg.field}.slug`, line: pkg.line, url: pkg.buyUrl };
    const product = bySlug.get(pkg.slug);
    if (!product) {
      problems.push({
        ...at,
        code: codes.checkoutNoProduct,
        message: `${pkg.name}: the checkout has no product with the slug "${pkg.slug}"; its Buy Now leads nowhere.`,
        hint: 'Create the product in WooCommerce with this slug, or correct the slug in the catalogue.',
      });
      continue;
    }
    // The product's name and permalink are the checkout's text: quoted, never trusted.
    const named = `${pkg.name} (checkout product ${product.id}, ${quoted(product.name)})`;
    if (!product.is_purchasable || !product.is_in_stock) {
      problems.push({
        ...at,
        code: codes.checkoutNotForSale,
        message: `${named} ${!product.is_purchasable ? 'cannot be bought (not purchasable: no price, or not published)' : 'is out of stock'}.`,
        hint: 'Make it purchasable and in stock in WooCommerce, or take the package out of the catalogue.',
      });
    }
    // A product that cannot be bought charges nothing: its (empty) price is no second problem.
    if (!product.is_purchasable) continue;
    const charged = chargedPrice(product, currency);
    if ('refused' in charged) {
      problems.push({
        ...at,
        field: `${pkg.field}.price`,
        code: codes.checkoutPriceDiffers,
        message:
          product.prices.currency_code !== currency
            ? `${named} is priced in ${currencyOf(product.prices.currency_code)}; the storefront shows ${currency}.`
            : `${named} ${charged.refused}: no price the storefront can show (it shows ${formatPrice(pkg.price)}).`,
        hint:
          product.prices.currency_code !== currency
            ? 'Set the checkout\'s currency to the catalogue\'s (GBP).'
            : 'Correct the product\'s price in WooCommerce: a positive amount of pounds and pence, below the catalogue\'s ceiling.',
      });
    } else if (charged.price !== pkg.price) {
      problems.push({
        ...at,
        field: `${pkg.field}.price`,
        code: codes.checkoutPriceDiffers,
        message: `${named} is charged ${formatPrice(charged.price)}${charged.onSale ? ' (a sale price)' : ''}; the storefront shows ${formatPrice(pkg.price)}.`,
        hint: 'Make the two agree: change the price in the catalogue (`storefront catalogue pull --from-checkout` proposes it) or in WooCommerce.',
      });
    }
    const permalink = URL.canParse(product.permalink) ? new URL(product.permalink) : undefined;
    const expected = new URL(pkg.buyUrl);
    if (!permalink || permalink.origin !== expected.origin || permalink.pathname.replace(/\/$/, '') !== expected.pathname) {
      problems.push({
        ...at,
        code: codes.checkoutElsewhere,
        message: `${named} lives at ${permalink && permalink.href.length <= 200 ? permalink.href : quoted(product.permalink)}, not at ${pkg.buyUrl} where Buy Now sends the visitor.`,
        hint: 'The product\'s permalink must be /product/{slug} on the checkout site (WooCommerce: Settings › Permalinks › Product base).',
      });
    }
  }
  return problems;
}

/**
 * For a checkout without the Store API: requests each Buy Now address (HEAD, then GET when HEAD
 * is not answered 200), a few at a time, following redirects; one problem for each that does
 * not end on 200.
 */
export async function verifyBuyLinks(packages: readonly CataloguePackage[], concurrency = 4): Promise<Problem[]> {
  const answers = await runParallel(packages, concurrency, async (pkg) => {
    const ask = async (method: string) => {
      try {
        return (await fetch(pkg.buyUrl, { method, redirect: 'follow', signal: AbortSignal.timeout(15_000) })).status;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const head = await ask('HEAD');
    return head === 200 ? head : ask('GET');
  });
  return packages.flatMap((pkg, i): Problem[] =>
    answers[i] === 200
      ? []
      : [
          {
            code: codes.checkoutNoProduct,
            file: CATALOGUE,
            field: `${pkg.field}.slug`,
            line: pkg.line,
            url: pkg.buyUrl,
            message: `${pkg.name}: its Buy Now answers ${typeof answers[i] === 'number' ? `HTTP ${answers[i]}` : `nothing (${answers[i]})`}, not a product page.`,
            hint: 'Check the product and its slug on the checkout site, or correct the slug in the catalogue.',
          },
        ],
  );
}
