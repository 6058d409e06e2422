import { buyUrl, formatPrice } from '../catalogue/catalogue-index.js';
import type { Catalogue } from '../content/schemas.js';
import type { SourceFile } from '../util/source-file.js';
import { problem } from '../errors/catalogue.js';
import type { Problem } from '../errors/storefront-error.js';
import { runParallel } from '../util/run-parallel.js';
import { chargedPrice, currencyOf, quoted, type StoreProduct } from './store-api.js';
import { CATALOGUE_FILE } from '../util/content-files.js';

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
export function cataloguePackages(
  catalogue: Catalogue,
  checkoutUrl: string,
  lineOf?: SourceFile['lineOf'],
): CataloguePackage[] {
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
export function verifyAgainstStore(
  packages: readonly CataloguePackage[],
  currency: string,
  products: readonly StoreProduct[],
): Problem[] {
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  const problems: Problem[] = [];
  for (const pkg of packages) {
    const at = { file: CATALOGUE_FILE, field: `${pkg.field}.slug`, line: pkg.line, url: pkg.buyUrl };
    const atPrice = { ...at, field: `${pkg.field}.price` };
    const product = bySlug.get(pkg.slug);
    if (!product) {
      problems.push(problem('checkoutNoProduct', { pkg: pkg.name, slug: pkg.slug }, at));
      continue;
    }
    // The product's name and permalink are the checkout's text: quoted, never trusted.
    const named = { pkg: pkg.name, product: { id: product.id, name: quoted(product.name) } };
    if (!product.is_purchasable || !product.is_in_stock)
      problems.push(problem('checkoutNotForSale', { ...named, purchasable: product.is_purchasable }, at));
    // A product that cannot be bought charges nothing: its (empty) price is no second problem.
    if (!product.is_purchasable) continue;
    const charged = chargedPrice(product, currency);
    const shown = formatPrice(pkg.price);
    if ('refused' in charged) {
      problems.push(
        product.prices.currency_code !== currency
          ? problem(
              'checkoutOtherCurrency',
              { ...named, charged: currencyOf(product.prices.currency_code), shown: currency },
              atPrice,
            )
          : problem('checkoutPriceUnusable', { ...named, refused: charged.refused, shown }, atPrice),
      );
    } else if (charged.price !== pkg.price) {
      const values = { ...named, charged: formatPrice(charged.price), onSale: charged.onSale, shown };
      problems.push(problem('checkoutPriceDiffers', values, atPrice));
    }
    const permalink = URL.canParse(product.permalink) ? new URL(product.permalink) : undefined;
    const expected = new URL(pkg.buyUrl);
    if (
      !permalink ||
      permalink.origin !== expected.origin ||
      permalink.pathname.replace(/\/$/, '') !== expected.pathname
    ) {
      const lives = permalink && permalink.href.length <= 200 ? permalink.href : quoted(product.permalink);
      problems.push(problem('checkoutElsewhere', { ...named, lives, buyUrl: pkg.buyUrl }, at));
    }
  }
  return problems;
}

/**
 * Where one request of a Buy Now address ended: a status on the checkout's own site, a failure, or a
 * redirect to another site.
 */
type BuyAnswer = { status: number } | { failed: string } | { elsewhere: string };

/** Redirects followed on the checkout's own site: WordPress adds a slash, perhaps a language; more is a loop. */
const MAX_HOPS = 5;

/**
 * Requests a Buy Now address, following redirects only on its own origin. One to another origin
 * is never requested: a checkout (or whoever holds its address) could send the check anywhere,
 * and a 200 there says nothing of the checkout's products.
 */
async function askBuyUrl(url: string, method: string): Promise<BuyAnswer> {
  const origin = new URL(url).origin;
  let at = url;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    let response: Response;
    try {
      response = await fetch(at, { method, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      return { failed: (error as Error).message };
    }
    // Only the status is wanted: the body is never read.
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return { status: response.status };
    if (!URL.canParse(location, at)) return { failed: `a redirect to ${quoted(location)}, which is no address` };
    const next = new URL(location, at);
    if (next.origin !== origin) return { elsewhere: next.origin };
    at = next.href;
  }
  return { failed: `more than ${MAX_HOPS} redirects` };
}

/** What the Buy Now addresses of a checkout without the Store API showed. */
export interface BuyLinksReport {
  problems: Problem[];
  /** Buy Now addresses that ended on 200 on the checkout's own site. */
  answered: number;
  /** Buy Now addresses that redirect to another site: not followed, so not verified. */
  elsewhere: number;
}

/**
 * For a checkout without the Store API: requests each Buy Now address (HEAD, then GET when HEAD
 * is not answered 200), a few at a time, following redirects on the checkout's own site only;
 * one problem for each that does not end on 200 there.
 */
export async function verifyBuyLinks(packages: readonly CataloguePackage[], concurrency = 4): Promise<BuyLinksReport> {
  const answers = await runParallel(packages, concurrency, async (pkg) => {
    const head = await askBuyUrl(pkg.buyUrl, 'HEAD');
    return 'status' in head && head.status === 200 ? head : 'elsewhere' in head ? head : askBuyUrl(pkg.buyUrl, 'GET');
  });
  const problems = packages.flatMap((pkg, i): Problem[] => {
    const answer = answers[i]!;
    if ('status' in answer && answer.status === 200) return [];
    const at = { file: CATALOGUE_FILE, field: `${pkg.field}.slug`, line: pkg.line, url: pkg.buyUrl };
    if ('elsewhere' in answer)
      return [problem('checkoutBuyRedirectsAway', { pkg: pkg.name, origin: answer.elsewhere }, at)];
    return [problem('checkoutBuyNotProduct', { pkg: pkg.name, ...answer }, at)];
  });
  return {
    problems,
    answered: answers.filter((answer) => 'status' in answer && answer.status === 200).length,
    elsewhere: answers.filter((answer) => 'elsewhere' in answer).length,
  };
}
