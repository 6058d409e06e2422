import { execFile } from 'node:child_process';
import { lstat, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml, parseDocument, isMap, isScalar, type Document } from 'yaml';
import { loadConfig, type Config } from '../config/load-config.js';
import { problem } from '../errors/catalogue.js';
import { ProblemList, StorefrontError } from '../errors/storefront-error.js';
import { readBounded } from '../util/read-bounded.js';
import { YAML_FILE } from '../util/source-file.js';
import { loadContent } from '../content/load-content.js';
import { catalogueSchema } from '../content/schemas.js';
import type { Problem } from '../errors/storefront-error.js';
import { chargedPrice, fetchStoreProducts, hasStoreApi, productsUrl } from './store-api.js';
import { cataloguePackages, verifyAgainstStore, verifyBuyLinks } from './verify-checkout.js';
import { isWithin } from '../util/inside-project.js';
import { CATALOGUE_FILE } from '../util/content-files.js';

export interface CheckoutReport {
  problems: Problem[];
  /** One line for the user: how the checkout was read, and how many packages agree. */
  summary: string;
}

/** The catalogue (validated with all the content), and its packages. */
async function catalogueOf(root: string, config: Config) {
  const content = await loadContent(root, config);
  const packages = cataloguePackages(content.catalogue, config.checkoutUrl, content.lineOf[CATALOGUE_FILE]);
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
    const { problems, answered, elsewhere } = await verifyBuyLinks(packages);
    // What a 200 proves, and what it cannot: the page exists; what it charges is not known.
    const away = elsewhere ? `, ${elsewhere} redirect to another site (not followed)` : '';
    return {
      problems,
      summary:
        `Checkout ${config.checkoutUrl} has no WooCommerce Store API: ` +
        `${answered} of ${packages.length} Buy Now links answer 200 on its own site${away}; ` +
        'price, currency and stock are not verified.',
    };
  }
  const { products, source } = await fetchStoreProducts(root, config.checkoutUrl, offline);
  const problems = verifyAgainstStore(packages, content.catalogue.currency, products);
  const faulty = new Set(problems.map((problem) => problem.field?.replace(/\.(slug|price)$/, '')));
  return {
    problems,
    summary:
      `Checkout ${productsUrl(config.checkoutUrl)}${source === 'cache' ? ' (from the cache)' : ''}: ` +
      `${products.length} products read, ${packages.length - faulty.size} of ${packages.length} packages ` +
      'agree with the catalogue (product, for sale, price, currency, address).',
  };
}

export interface PulledCatalogue {
  /** Where the proposed catalogue was written. */
  file: string;
  /** One line per price changed: the line of the catalogue, the package, the old and new price. */
  changes: string[];
  /** Packages whose price could not be taken (no product, not for sale), left as they are. */
  missing: string[];
}

/** Folders of the project the proposed catalogue is never written into, wherever --to leads. */
const NEVER_INTO = ['content', '.git', 'node_modules'];

/** An existing file larger than this is no catalogue: it is not even read. */
const MAX_CATALOGUE_BYTES = 1024 * 1024;

/** A --to refused (SF170); `cause`: the error that showed why, if one did. */
function refusedTo(found: Problem, cause?: unknown): StorefrontError {
  return new StorefrontError(found, 'Nothing was written.', { cause });
}

/** Where a --to problem is. */
const TO = { field: '--to' };

/** Whether git tracks the file (false where there is no git, or no repository). */
function isTracked(folder: string, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('git', ['-C', folder, 'ls-files', '--error-unmatch', '--', name], { timeout: 5_000 }, (error) =>
      resolve(!error),
    );
  });
}

/**
 * Where `--to` really leads: its folder's real path (links followed) and its name. Refused
 * (SF170): a folder that does not exist, a place inside content/, .git/ or node_modules/ (of
 * the real paths: a link to content/ leads into content/), a folder, a link, and an existing
 * file that is not a proposed catalogue. An existing file is only replaced when it is a
 * catalogue (as content/catalogue.yaml is: YAML of the catalogue's shape, as an earlier pull
 * writes it) that git does not track: package.json, tsconfig.json, README.md or a tracked file
 * never are.
 */
async function proposalTarget(root: string, out: string): Promise<string> {
  const resolved = path.resolve(root, out);
  if (/[\\/]$/.test(out)) throw refusedTo(problem('proposalNamesFolder', { to: out }, TO));
  let folder: string;
  try {
    folder = await realpath(path.dirname(resolved));
    if (!(await stat(folder)).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    throw refusedTo(problem('proposalFolderMissing', { to: out, folder: path.dirname(out) || '.' }, TO), error);
  }
  const name = path.basename(resolved);
  const file = path.join(folder, name);
  const realRoot = await realpath(root);
  for (const dir of NEVER_INTO) {
    const real = await realpath(path.join(root, dir)).catch(() => path.join(realRoot, dir));
    if (isWithin(real, file)) throw refusedTo(problem('proposalIntoProjectFolder', { to: out, folder: dir }, TO));
  }
  let existing: Awaited<ReturnType<typeof lstat>>;
  try {
    existing = await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw error;
  }
  if (existing.isDirectory()) throw refusedTo(problem('proposalIsFolder', { to: out }, TO));
  if (!existing.isFile()) throw refusedTo(problem('proposalIsSpecialFile', { to: out }, TO));
  const notOurs = () => refusedTo(problem('proposalWouldOverwrite', { to: out }, TO));
  if (existing.size > MAX_CATALOGUE_BYTES) throw notOurs();
  let shaped = false;
  try {
    shaped = catalogueSchema.safeParse(parseYaml(await readFile(file, 'utf8'))).success;
  } catch {
    shaped = false;
  }
  if (!shaped || (await isTracked(folder, name))) throw notOurs();
  return file;
}

/**
 * Writes the file by a temporary file beside it, created afresh (never through a link) and
 * renamed over it; the temporary file is removed on any failure.
 */
async function writeProposal(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * `storefront catalogue pull --from-checkout`: the catalogue with the checkout's current prices,
 * written beside it for review (catalogue.proposed.yaml by default), never over content/. Each
 * changed price is replaced where it stands in the text, so everything else stays byte for byte.
 * A product whose price is no price the catalogue can hold (see `chargedPrice`) is a problem:
 * nothing is written, and every such product is reported.
 */
export async function pullCatalogue(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  out: string,
  offline: boolean,
): Promise<PulledCatalogue> {
  const config = await loadConfig(root, env);
  // Refused before the checkout is asked, and once more before writing.
  await proposalTarget(root, out);
  const { content, packages } = await catalogueOf(root, config);
  const { products } = await fetchStoreProducts(root, config.checkoutUrl, offline);
  const currency = content.catalogue.currency;
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  // Read again to edit its text, through the same bounded read as the content stage (a pipe put
  // in its place meanwhile is refused, never waited on).
  const read = new ProblemList();
  const text = readBounded(path.join(root, CATALOGUE_FILE), CATALOGUE_FILE, YAML_FILE, read)?.toString('utf8');
  if (text === undefined) throw new StorefrontError([...read.items]);
  const doc: Document = parseDocument(text);
  const changes: string[] = [];
  const missing: string[] = [];
  const problems: Problem[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  for (const pkg of packages) {
    const product = bySlug.get(pkg.slug);
    if (!product) {
      missing.push(`the checkout has no product for ${pkg.name} (${pkg.slug})`);
      continue;
    }
    if (!product.is_purchasable) {
      missing.push(`${pkg.name} (${pkg.slug}) cannot be bought on the checkout`);
      continue;
    }
    const charged = chargedPrice(product, currency);
    if ('refused' in charged) {
      const values = {
        name: pkg.name,
        slug: pkg.slug,
        product: product.id,
        refused: charged.refused,
        otherCurrency: product.prices.currency_code !== currency,
      };
      const at = {
        file: CATALOGUE_FILE,
        field: `${pkg.field}.price`,
        line: pkg.line,
        url: productsUrl(config.checkoutUrl),
      };
      problems.push(problem('proposalPriceUnusable', values, at));
      continue;
    }
    if (charged.price === pkg.price) continue;
    const keys = pkg.field
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    const node = doc.getIn(keys, true);
    if (!isMap(node)) continue;
    const price = node.get('price', true);
    if (!isScalar(price) || !price.range) continue;
    edits.push({ start: price.range[0], end: price.range[1], text: String(charged.price) });
    changes.push(`${CATALOGUE_FILE}:${pkg.line ?? '?'}  ${pkg.name} (${pkg.slug}): ${pkg.price} → ${charged.price}`);
  }
  if (problems.length)
    throw new StorefrontError(
      problems,
      `Nothing was written: no price is proposed while the checkout charges one the catalogue cannot hold.`,
    );
  let proposed = text;
  for (const { start, end, text: price } of edits.sort((a, b) => b.start - a.start))
    proposed = proposed.slice(0, start) + price + proposed.slice(end);
  const file = await proposalTarget(root, out);
  await writeProposal(file, proposed);
  return { file, changes, missing };
}
