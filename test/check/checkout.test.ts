/**
 * Checkout verification (issue 20), through the real CLI against a WooCommerce-shaped checkout
 * on 127.0.0.1 (test/support/fake-store-api.ts): every Buy Now leads to a product that exists,
 * can be bought, and charges the price and currency the storefront shows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { hashTree, repoRoot, runCli, tempProject } from '../helpers.js';
import { FakeStoreApi, productsOf, type FakeProduct } from '../support/fake-store-api.js';

type Project = Awaited<ReturnType<typeof tempProject>>;
const catalogueText = await readFile(path.join(repoRoot, 'content/catalogue.yaml'), 'utf8');
const catalogue = parseYaml(catalogueText);
const lineOf = (slug: string) =>
  catalogueText.split('\n').findIndex((line) => new RegExp(`slug: ${slug}[ ,]`).test(line)) + 1;

/** 60 products of the same shop that the storefront does not sell: the Store API answers in two pages of 100. */
const others: FakeProduct[] = Array.from({ length: 60 }, (_, i) => ({
  id: 9000 + i,
  name: `Gift card ${i}`,
  slug: `gift-card-${i}`,
  regular_price: '1000',
  sale_price: '',
  currency_code: 'GBP',
  is_purchasable: true,
  is_in_stock: true,
}));

const servers: FakeStoreApi[] = [];
const projects: Project[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(projects.map((p) => p.cleanup()));
});

/** A checkout server, and a project built with its address as CHECKOUT_URL. */
async function setUp(
  products: FakeProduct[],
): Promise<{ shop: FakeStoreApi; root: string; env: Record<string, string> }> {
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
    expect(result.stdout).toContain(
      `${packages + 60} products read, ${packages} of ${packages} packages agree with the catalogue`,
    );
    expect(shop.requests.filter((r) => r.startsWith('GET /wp-json/wc/store/v1/products?per_page=100'))).toEqual([
      'GET /wp-json/wc/store/v1/products?per_page=100&page=1',
      'GET /wp-json/wc/store/v1/products?per_page=100&page=2',
    ]);
    // Saved like the CMS's posts, for --offline.
    const offline = await runCli(['--root', root, 'check', '--checkout', '--offline'], env);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('(from the cache)');
  });

  it(
    'reports one problem per defect, naming the catalogue line and the product; ' +
      'a sale price that matches is no defect',
    async () => {
      const products = productsOf(catalogue);
      const edit = (slug: string, change: Partial<FakeProduct>) =>
        Object.assign(products.find((p) => p.slug === slug)!, change);
      products.splice(
        products.findIndex((p) => p.slug === '250-ig-likes'),
        1,
      ); // missing
      edit('500-ig-likes', { is_in_stock: false });
      edit('1000-ig-likes', { is_purchasable: false, regular_price: '', sale_price: '' });
      edit('100-ig-views', { sale_price: '149' }); // charged £1.49, shown £1.79
      edit('250-ig-views', { regular_price: '299', sale_price: '239' }); // on sale at the price shown: agrees
      edit('500-ig-views', { currency_code: 'USD', regular_price: '400' });
      edit('1000-ig-views', { permalink: 'https://elsewhere.example.org/product/1000-ig-views/' });
      const { root, env } = await setUp([...products, ...others]);
      const result = await runCli(['--root', root, 'check', '--checkout'], env);
      expect(result.code).toBe(1);
      const found = [...result.stderr.matchAll(/(SF40\d) {2}content\/catalogue\.yaml:(\d+) › (\S+)/g)].map(
        (m) => `${m[1]} ${m[2]} ${m[3]}`,
      );
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
    },
  );

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
    expect([...result.stderr.matchAll(/SF401 {2}content\/catalogue\.yaml:(\d+) › (\S+)/g)].map((m) => m[2])).toEqual([
      'platforms[0].sub[0].packages[6].slug',
    ]);
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
    products.splice(
      products.findIndex((p) => p.slug === '250-ig-followers'),
      1,
    );
    Object.assign(products.find((p) => p.slug === '100-ig-followers')!, {
      is_purchasable: false,
      regular_price: '',
      sale_price: '',
    });
    const { root, env } = await setUp(products);
    const result = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `content/catalogue.yaml:${lineOf('500-ig-followers')}  Instagram Followers, 500 (500-ig-followers): 5.49 → 5.99`,
    );
    expect(result.stdout).toContain(
      `content/catalogue.yaml:${lineOf('1000-ig-followers')}  Instagram Followers, 1,000 (1000-ig-followers): 10 → 11`,
    );
    expect(result.stdout).toContain('2 price(s) differ');
    expect(result.stderr).toContain('the checkout has no product for Instagram Followers, 250 (250-ig-followers)');
    expect(result.stderr).toContain(
      'Instagram Followers, 100 (100-ig-followers) cannot be bought on the checkout: its price is left as it is',
    );
    expect(await readFile(path.join(root, 'content/catalogue.yaml'), 'utf8')).toBe(catalogueText);
    const proposed = await readFile(path.join(root, 'catalogue.proposed.yaml'), 'utf8');
    // Only those two lines differ: comments and layout are kept.
    const before = catalogueText.split('\n');
    const changed = proposed
      .split('\n')
      .map((line, i) => [i + 1, line] as const)
      .filter(([i, line]) => line !== before[i - 1]);
    expect(changed.map(([i]) => i)).toEqual([lineOf('500-ig-followers'), lineOf('1000-ig-followers')]);
    expect(changed[0]![1]).toContain('price: 5.99');
    // Never into content/.
    const refused = await runCli(
      ['--root', root, 'catalogue', 'pull', '--from-checkout', '--to', 'content/catalogue.yaml'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SF170');
    expect(refused.stderr).toContain('never written into content/');
    expect(await readFile(path.join(root, 'content/catalogue.yaml'), 'utf8')).toBe(catalogueText);
    expect(existsSync(path.join(root, 'content/catalogue.proposed.yaml'))).toBe(false);
  });
});

describe('hostile checkout answers', () => {
  const productRequests = (shop: FakeStoreApi) =>
    shop.requests.filter((r) => r.startsWith('GET /wp-json/wc/store/v1/products'));
  const plainMode = (shop: FakeStoreApi) => shop.requests.filter((r) => / \/product\//.test(r));

  it(
    'a price that is no price (-500, "abc", "1e30", "0", "Infinity", USD, at the ceiling) is refused per product, ' +
      'never proposed, exit 1',
    async () => {
      const products = productsOf(catalogue);
      const absurd: [Partial<FakeProduct>, string][] = [
        [{ regular_price: '-500' }, 'has a price of "-500", not a whole number of minor units (pence)'],
        [{ regular_price: 'abc' }, 'has a price of "abc", not a whole number of minor units (pence)'],
        [{ regular_price: '1e30' }, 'has a price of "1e30", not a whole number of minor units (pence)'],
        [{ regular_price: '0' }, 'charges "0" minor units, nothing or less'],
        [{ regular_price: 'Infinity' }, 'has a price of "Infinity", not a whole number of minor units (pence)'],
        [{ currency_code: 'USD' }, 'is priced in USD, not GBP'],
        [
          { regular_price: '1000000' },
          'charges "1000000" minor units, at or above the catalogue\'s ceiling of £10,000',
        ],
      ];
      const hostile = products.slice(0, absurd.length);
      hostile.forEach((product, i) => {
        Object.assign(product, absurd[i]![0], { name: `Evil\u001b[2J\r\nname ${i}` });
      });
      // A price that differs and is a price: still not proposed, as nothing is written.
      Object.assign(products[absurd.length]!, {
        regular_price: String(Number(products[absurd.length]!.regular_price) + 100),
      });
      const { root, env } = await setUp(products);
      const earlier = `${catalogueText}# an earlier proposal\n`;
      await writeFile(path.join(root, 'catalogue.proposed.yaml'), earlier);

      const pulled = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout'], env);
      expect(pulled.code).toBe(1);
      hostile.forEach((product, i) => {
        expect(pulled.stderr).toContain(
          `(${product.slug}): the checkout's product ${product.id} ${absurd[i]![1]}; no price is proposed for it.`,
        );
        expect(pulled.stderr).toContain(`SF403  content/catalogue.yaml:${lineOf(product.slug)} › `);
      });
      expect(pulled.stderr).toContain('Nothing was written');
      expect(pulled.stdout).not.toContain('→');
      expect(await readFile(path.join(root, 'catalogue.proposed.yaml'), 'utf8')).toBe(earlier);
      expect(await readFile(path.join(root, 'content/catalogue.yaml'), 'utf8')).toBe(catalogueText);

      const checked = await runCli(['--root', root, 'check', '--checkout'], env);
      expect(checked.code).toBe(1);
      const found = [...checked.stderr.matchAll(/SF403 {2}content\/catalogue\.yaml:(\d+) › (\S+)\.price/g)].map((m) =>
        Number(m[1]),
      );
      expect(found.sort((a, b) => a - b)).toEqual(
        [...hostile, products[absurd.length]!].map((p) => lineOf(p.slug)).sort((a, b) => a - b),
      );
      expect(checked.stderr).toContain('no price the storefront can show');
      expect(checked.stderr).toContain('is priced in USD; the storefront shows GBP');
      // The checkout's names are quoted and escaped, never printed raw.
      expect(checked.stderr).toContain('"Evil\\u001b[2J\\r\\nname 0"');
      expect(checked.stderr + pulled.stderr + checked.stdout + pulled.stdout).not.toMatch(/[\u001b\r]/);
    },
  );

  it(
    'a first answer redirecting to another port fails the check; ' +
      'the redirect is not followed and the plain mode is not taken',
    async () => {
      const { shop, root, env } = await setUp(productsOf(catalogue));
      const other = await new FakeStoreApi(productsOf(catalogue)).start();
      servers.push(other);
      shop.answer = { status: 302, headers: { Location: `${other.origin}/wp-json/wc/store/v1/products?per_page=1` } };
      const result = await runCli(['--root', root, 'check', '--checkout'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SF201');
      expect(result.stderr).toContain('HTTP 302');
      expect(result.stdout).not.toContain('has no WooCommerce Store API');
      expect(other.requests).toEqual([]);
      expect(productRequests(shop)).toHaveLength(1);
      expect(plainMode(shop)).toEqual([]);
    },
  );

  it('a first answer larger than the client allows fails within the limit', async () => {
    const { shop, root, env } = await setUp(productsOf(catalogue));
    shop.answer = {
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=UTF-8' },
      bytes: 36 * 1024 * 1024,
    };
    const result = await runCli(['--root', root, 'check', '--checkout'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF201');
    expect(result.stderr).toContain('The answer is larger than 32 MB');
    expect(productRequests(shop)).toHaveLength(1);
    expect(plainMode(shop)).toEqual([]);
  });

  it('a 200 that is HTML, {} or a list of things that are no products fails the check', async () => {
    const { shop, root, env } = await setUp(productsOf(catalogue));
    const answers: [string, string, string][] = [
      ['text/html; charset=UTF-8', '<!doctype html><title>Shop</title><p>Welcome', 'The answer is not JSON'],
      ['application/json; charset=UTF-8', '{}', 'The answer is JSON but not a list'],
      ['application/json; charset=UTF-8', '[{"hello":"world"}]', 'A product of the Store API lacks a field'],
    ];
    for (const [type, body, expected] of answers) {
      shop.requests.length = 0;
      shop.answer = { status: 200, headers: { 'Content-Type': type }, body };
      const result = await runCli(['--root', root, 'check', '--checkout'], env);
      expect(result.code, body).toBe(1);
      expect(result.stderr).toContain(expected);
      expect(result.stdout).not.toContain('has no WooCommerce Store API');
      expect(plainMode(shop)).toEqual([]);
    }
  }, 120_000);

  it('--to is refused (SF170) into content/ by a link, over a file it did not write, into .git/, on a folder; ' +
    'nothing changed, no temporary file left', async () => {
    const { root, env } = await setUp(productsOf(catalogue));
    execFileSync('git', ['init', '-q'], { cwd: root });
    await symlink(path.join(root, 'content'), path.join(root, 'c2'), 'dir');
    await writeFile(path.join(root, 'package.json'), '{ "name": "my-shop", "private": true }\n');
    await writeFile(path.join(root, 'tsconfig.json'), '{}\n');
    await mkdir(path.join(root, 'node_modules'));
    // A catalogue that git tracks: not a proposal either.
    await mkdir(path.join(root, 'kept'));
    await cp(path.join(root, 'content/catalogue.yaml'), path.join(root, 'kept/catalogue.yaml'));
    execFileSync('git', ['add', 'kept/catalogue.yaml'], { cwd: root });
    const files = ['package.json', 'tsconfig.json', '.git/config', 'kept/catalogue.yaml'];
    const before = await Promise.all(files.map((f) => readFile(path.join(root, f))));
    const contentBefore = await hashTree(path.join(root, 'content'));
    const cases: [string, string][] = [
      ['c2/catalogue.yaml', 'never written into content/'],
      ['c2/new.yaml', 'never written into content/'],
      ['content/new.yaml', 'never written into content/'],
      ['package.json', 'is not a proposed catalogue'],
      ['tsconfig.json', 'is not a proposed catalogue'],
      ['kept/catalogue.yaml', 'is not a proposed catalogue'],
      ['.git/config', 'never written into .git/'],
      ['.git/new.yaml', 'never written into .git/'],
      ['node_modules/x.yaml', 'never written into node_modules/'],
      ['.', 'this is a folder'],
      ['kept/', 'this names a folder'],
      ['nowhere/x.yaml', 'does not exist'],
    ];
    for (const [to, expected] of cases) {
      const result = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout', '--to', to], env);
      expect(result.code, to).toBe(1);
      expect(result.stderr, to).toContain('SF170');
      expect(result.stderr, to).toContain(expected);
    }
    expect(await Promise.all(files.map((f) => readFile(path.join(root, f))))).toEqual(before);
    expect(await hashTree(path.join(root, 'content'))).toBe(contentBefore);
    expect(existsSync(path.join(root, 'content/new.yaml'))).toBe(false);
    expect(existsSync(path.join(root, 'nowhere'))).toBe(false);
    const temporary = (names: string[]) => names.filter((name) => name.endsWith('.tmp'));
    expect(temporary(await readdir(root, { recursive: true }))).toEqual([]);
    expect((await readdir(path.dirname(root))).filter((name) => name.startsWith(`${path.basename(root)}.`))).toEqual(
      [],
    );
    // An earlier proposal is replaced: the command's own file.
    for (let run = 0; run < 2; run++) {
      const result = await runCli(['--root', root, 'catalogue', 'pull', '--from-checkout'], env);
      expect(result.code, result.stderr).toBe(0);
    }
    expect(await readFile(path.join(root, 'catalogue.proposed.yaml'), 'utf8')).toBe(catalogueText);
  }, 240_000);
});
