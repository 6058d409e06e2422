/**
 * Checkout verification (issue 20), through the real CLI against a WooCommerce-shaped checkout
 * on 127.0.0.1 (test/support/fake-store-api.ts): every Buy Now leads to a product that exists,
 * can be bought, and charges the price and currency the storefront shows.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { repoRoot, runCli, tempProject } from '../helpers.js';
import { FakeStoreApi, productsOf, type FakeProduct } from '../support/fake-store-api.js';

type Project = Awaited<ReturnType<typeof tempProject>>;
const catalogueText = await readFile(path.join(repoRoot, 'content/catalogue.yaml'), 'utf8');
const catalogue = parseYaml(catalogueText);
const lineOf = (slug: string) => catalogueText.split('\n').findIndex((line) => line.includes(`slug: ${slug} `)) + 1;

/** 60 products of the same shop that the storefront does not sell: the Store API answers in two pages of 100. */
const others: FakeProduct[] = Array.from({ length: 60 }, (_, i) => ({
  id: 9000 + i, name: `Gift card ${i}`, slug: `gift-card-${i}`, regular_price: '1000', sale_price: '', currency_code: 'GBP', is_purchasable: true, is_in_stock: true,
}));

const servers: FakeStoreApi[] = [];
const projects: Project[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(projects.map((p) => p.cleanup()));
});

/** A checkout server, and a project built with its address as CHECKOUT_URL. */
async function setUp(products: FakeProduct[]): Promise<{ shop: FakeStoreApi; root: string; env: Record<string, string> }> {
  const shop = await new FakeStoreApi(products).start();
  servers.push(shop);
  const project = await tempProject();
  projects.push(project);
  const env = { CHECKOUT_URL: shop.origin };
  const built = await runCli(['--root', project.root, 'build'], env);
  expect(built.code, built.stderr).toBe(0);
  return { shop, root: project.root, env };
}

describe('storefront check --checkout, against the Store API', () => {
  it('all agree: exit 0, a summary line with the counts, the products read in two pages', async () => {
    const { shop, root, env } = await setUp([...productsOf(catalogue), ...others]);
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code, result.stderr).toBe(0);
    const packages = productsOf(catalogue).length;
    expect(result.stdout).toContain(`${packages + 60} products read, ${packages} of ${packages} packages agree with the catalogue`);
    expect(shop.requests.filter((r) => r.startsWith('GET /wp-json/wc/store/v1/products?per_page=100'))).toEqual([
      'GET /wp-json/wc/store/v1/products?per_page=100&page=1',
      'GET /wp-json/wc/store/v1/products?per_page=100&page=2',
    ]);
    // Saved like the CMS's posts, for --offline.
    const offline = await runCli(['--root', root, 'check', '--checkout', '--offline'], env);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('(from the cache)');
  });

  it('reports one problem per defect, naming the catalogue line and the product; a sale price that matches is no defect', async () => {
    const products = productsOf(catalogue);
    const edit = (slug: string, change: Partial<FakeProduct>) => Object.assign(products.find((p) => p.slug === slug)!, change);
    products.splice(products.findIndex((p) => p.slug === '250-ig-likes'), 1); // missing
    edit('500-ig-likes', { is_in_stock: false });
    edit('1000-ig-likes', { is_purchasable: false, regular_price: '', sale_price: '' });
    edit('100-ig-views', { sale_price: '149' }); // charged £1.49, shown £1.79
    edit('250-ig-views', { regular_price: '299', sale_price: '239' }); // on sale at the price shown: agrees
    edit('500-ig-views', { currency_code: 'USD', regular_price: '400' });
    edit('1000-ig-views', { permalink: 'https://elsewhere.example.org/product/1000-ig-views/' });
    const { root, env } = await setUp([...products, ...others]);
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    const found = [...result.stderr.matchAll(/(SF40\d) {2}content\/catalogue\.yaml:(\d+) › (\S+)/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    const at = (slug: string) => `${lineOf(slug)}`;
    expect(found.sort()).toEqual(
      [
        `SF401 ${at('250-ig-likes')} platforms[0].sub[1].packages[1].slug`,
        `SF402 ${at('500-ig-likes')} platforms[0].sub[1].packages[2].slug`,
        `SF402 ${at('1000-ig-likes')} platforms[0].sub[1].packages[3].slug`,
        `SF403 ${at('100-ig-views')} platforms[0].sub[2].packages[0].price`,
        `SF403 ${at('500-ig-views')} platforms[0].sub[2].packages[2].price`,
        `SF404 ${at('1000-ig-views')} platforms[0].sub[2].packages[3].slug`,
      ].sort(),
    );
    expect(result.stderr).toContain('Instagram Likes, 250: the checkout has no product with the slug "250-ig-likes"');
    expect(result.stderr).toContain('is out of stock');
    expect(result.stderr).toContain('cannot be bought');
    expect(result.stderr).toContain('is charged £1.49 (a sale price); the storefront shows £1.79');
    expect(result.stderr).toContain('is priced in USD; the storefront shows GBP');
    expect(result.stderr).toContain('lives at https://elsewhere.example.org/product/1000-ig-views/');
    expect(result.stderr).not.toContain('250-ig-views"');
  });

  it('checkoutVerify in the settings makes it the default', async () => {
    const products = productsOf(catalogue).filter((p) => p.slug !== '100-ig-likes');
    const { root, env } = await setUp(products);
    const result = await runCli(['--root', root, 'check'], { ...env, CHECKOUT_VERIFY: 'true' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF401');
  });
});

describe('a checkout in trouble', () => {
  it('a Store API answering 503 fails the check, after retries, rather than passing it without prices', async () => {
    const { shop, root, env } = await setUp(productsOf(catalogue));
    shop.failing = true;
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF201');
    expect(result.stderr).toContain('The checkout could not be asked for its products after 4 attempts: HTTP 503');
    expect(shop.requests.filter((r) => r.startsWith('GET /wp-json/wc/store/v1/products'))).toHaveLength(4);
    expect(shop.requests.some((r) => r.startsWith('HEAD /product/'))).toBe(false);
  });
});

describe('a checkout failing half way', () => {
  it('fails the check with a hint about the checkout, not the blog', async () => {
    const { shop, root, env } = await setUp(productsOf(catalogue));
    shop.failing = 'pages';
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("The checkout's products could not be fetched after 4 attempts: HTTP 503");
    expect(result.stderr).toContain('hint: Check CHECKOUT_URL and that the checkout site is up');
    expect(result.stderr).not.toContain('CMS_API_URL');
  });
});

describe('a checkout whose REST API is closed to visitors', () => {
  it('answering 401 fails the check instead of passing it in the plain mode', async () => {
    const { shop, root, env } = await setUp(productsOf(catalogue));
    shop.closed = true;
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF201');
    expect(result.stderr).toContain('HTTP 401');
  });
});

describe('a checkout without the Store API', () => {
  it('has each Buy Now requested (HEAD, then GET) and reports those that do not end on 200', async () => {
    const products = productsOf(catalogue).filter((p) => p.slug !== '10k-ig-followers');
    const { shop, root, env } = await setUp(products);
    shop.storeApi = false;
    shop.headRefused.add('100-ig-followers');
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    expect([...result.stderr.matchAll(/SF401 {2}content\/catalogue\.yaml:(\d+) › (\S+)/g)].map((m) => m[2])).toEqual(['platforms[0].sub[0].packages[6].slug']);
    expect(result.stderr).toContain('Instagram Followers, 10,000: its Buy Now answers HTTP 404');
    expect(result.stdout).toMatch(/has no WooCommerce Store API: \d+ of \d+ Buy Now links answer 200/);
    // The refused HEAD was followed by a GET, which answered.
    expect(shop.requests).toContain('HEAD /product/100-ig-followers');
    expect(shop.requests).toContain('GET /product/100-ig-followers/');
  });
});

describe('storefront catalogue pull --from-checkout', () => {
  it("writes the checkout's prices into a proposed catalogue for review, and leaves content/ as it is", async () => {
    const products = productsOf(catalogue);
    Object.assign(products.find((p) => p.slug === '500-ig-followers')!, { regular_price: '599' });
    Object.assign(products.find((p) => p.slug === '1000-ig-followers')!, { regular_price: '1200', sale_price: '1100' });
    products.splice(products.findIndex((p) => p.slug === '250-ig-followers'), 1);
    Object.assign(products.find((p) => p.slug === '100-ig-followers')!, { currency_code: 'USD', regular_price: '250' });
    const { root, env } = await setUp(products);
    const result = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`content/catalogue.yaml:${lineOf('500-ig-followers')}  Instagram Followers, 500 (500-ig-followers): 5.49 → 5.99`);
    expect(result.stdout).toContain(`content/catalogue.yaml:${lineOf('1000-ig-followers')}  Instagram Followers, 1,000 (1000-ig-followers): 10 → 11`);
    expect(result.stdout).toContain('2 price(s) differ');
    expect(result.stderr).toContain('the checkout has no product for Instagram Followers, 250 (250-ig-followers)');
    expect(result.stderr).toContain('Instagram Followers, 100 (100-ig-followers) is priced in USD, not GBP: its price is left as it is');
    expect(await readFile(path.join(root, 'content/catalogue.yaml'), 'utf8')).toBe(catalogueText);
    const proposed = await readFile(path.join(root, 'catalogue.proposed.yaml'), 'utf8');
    // Only those two lines differ: comments and layout are kept.
    const before = catalogueText.split('\n');
    const changed = proposed.split('\n').map((line, i) => [i + 1, line] as const).filter(([i, line]) => line !== before[i - 1]);
    expect(changed.map(([i]) => i)).toEqual([lineOf('500-ig-followers'), lineOf('1000-ig-followers')]);
    expect(changed[0]![1]).toContain('price: 5.99');
    // Never into content/.
    const refused = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout', '--to', 'content/catalogue.yaml'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SF170');
    expect(refused.stderr).toContain('never written into content/');
    expect(await readFile(path.join(root, 'content/catalogue.yaml'), 'utf8')).toBe(catalogueText);
    expect(existsSync(path.join(root, 'content/catalogue.proposed.yaml'))).toBe(false);
  });
});
