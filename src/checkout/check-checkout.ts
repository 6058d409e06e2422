import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument, isMap, isScalar, type Document } from 'yaml';
import { loadConfig, type Config } from '../config/load-config.js';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { loadContent } from '../content/load-content.js';
import type { Problem } from '../errors/storefront-error.js';
import { writeFileAtomic } from '../util/write-atomic.js';
import { fetchStoreProducts, hasStoreApi, productsUrl, type StoreProduct } from './store-api.js';
import { cataloguePackages, verifyAgainstStore, verifyBuyLinks } from './verify-checkout.js';

const CATALOGUE = 'content/catalogue.yaml';

export interface CheckoutReport {
  problems: Problem[];
  /** One line for the user: how the checkout was read, and how many packages agree. */
  summary: string;
}

/** The catalogue (validated with all the content), and its packages. */
async function catalogueOf(root: string, config: Config) {
  const content = await loadContent(root, config);
  const packages = cataloguePackages(content.catalogue, config.checkoutUrl, content.lineOf[CATALOGUE]);
  return { content, packages };
}

/**
 * `storefront check --checkout`: does every Buy Now lead to a product that exists, can be
 * bought and charges the price the storefront shows? Read from the checkout's WooCommerce Store
 * API; a checkout without it has each Buy Now address requested instead.
 */
export async function checkCheckout(root: string, config: Config, offline: boolean): Promise<CheckoutReport> {
  const { content, packages } = await catalogueOf(root, config);
  if (!offline && !(await hasStoreApi(config.checkoutUrl))) {
    const problems = await verifyBuyLinks(packages);
    return { problems, summary: `Checkout ${config.checkoutUrl} has no WooCommerce Store API: ${packages.length - problems.length} of ${packages.length} Buy Now links answer 200.` };
  }
  const { products, source } = await fetchStoreProducts(root, config.checkoutUrl, offline);
  const problems = verifyAgainstStore(packages, content.catalogue.currency, config.checkoutUrl, products);
  const faulty = new Set(problems.map((problem) => problem.field?.replace(/\.(slug|price)$/, '')));
  return {
    problems,
    summary: `Checkout ${productsUrl(config.checkoutUrl)}${source === 'cache' ? ' (from the cache)' : ''}: ${products.length} products read, ${packages.length - faulty.size} of ${packages.length} packages agree with the catalogue (product, for sale, price, currency, address).`,
  };
}

export interface PulledCatalogue {
  /** Where the proposed catalogue was written. */
  file: string;
  /** One line per price changed: the line of the catalogue, the package, the old and new price. */
  changes: string[];
  /** Packages whose price could not be taken (no product, another currency), left as they are. */
  missing: string[];
}

/** The Store API price charged, in major units, or undefined when it is in another currency. */
function chargedPrice(product: StoreProduct, currency: string): number | undefined {
  if (product.prices.currency_code !== currency || !product.is_purchasable || product.prices.price === '') return undefined;
  return Number(product.prices.price) / 10 ** product.prices.currency_minor_unit;
}

/**
 * `storefront catalogue pull --from-checkout`: the catalogue with the checkout's current prices,
 * written beside it for review (catalogue.proposed.yaml by default), never over content/. Each
 * changed price is replaced where it stands in the text, so everything else stays byte for byte.
 */
export async function pullCatalogue(root: string, env: Readonly<Record<string, string | undefined>>, out: string, offline: boolean): Promise<PulledCatalogue> {
  const config = await loadConfig(root, env);
  const { content, packages } = await catalogueOf(root, config);
  const { products } = await fetchStoreProducts(root, config.checkoutUrl, offline);
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  const text = await readFile(path.join(root, CATALOGUE), 'utf8');
  const doc: Document = parseDocument(text);
  const changes: string[] = [];
  const missing: string[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  for (const pkg of packages) {
    const product = bySlug.get(pkg.slug);
    const charged = product && chargedPrice(product, content.catalogue.currency);
    if (charged === undefined) {
      missing.push(
        !product
          ? `the checkout has no product for ${pkg.name} (${pkg.slug})`
          : !product.is_purchasable || product.prices.price === ''
            ? `${pkg.name} (${pkg.slug}) cannot be bought on the checkout`
            : `${pkg.name} (${pkg.slug}) is priced in ${product.prices.currency_code}, not ${content.catalogue.currency}`,
      );
      continue;
    }
    if (charged === pkg.price) continue;
    const keys = pkg.field.split(/[.[\]]+/).filter(Boolean).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    const node = doc.getIn(keys, true);
    if (!isMap(node)) continue;
    const price = node.get('price', true);
    if (!isScalar(price) || !price.range) continue;
    edits.push({ start: price.range[0], end: price.range[1], text: String(charged) });
    changes.push(`${CATALOGUE}:${pkg.line ?? '?'}  ${pkg.name} (${pkg.slug}): ${pkg.price} → ${charged}`);
  }
  const file = path.resolve(root, out);
  if (path.relative(path.join(root, 'content'), file).split(path.sep)[0] !== '..') {
    throw new StorefrontError({
      code: codes.badFlag,
      field: '--to',
      message: `The proposed catalogue is never written into content/ (${out}): the catalogue changes only when you copy it over.`,
      hint: 'Leave --to out, or name a file outside content/, e.g. catalogue.proposed.yaml.',
    });
  }
  let proposed = text;
  for (const { start, end, text: price } of edits.sort((a, b) => b.start - a.start)) proposed = proposed.slice(0, start) + price + proposed.slice(end);
  await writeFileAtomic(file, proposed);
  return { file, changes, missing };
}
