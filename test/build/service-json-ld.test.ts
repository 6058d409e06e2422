/**
 * Every service page's structured data (issue 33): one Service with an AggregateOffer whose
 * price range and count are the catalogue's, in pounds, and no rating. The expected figures are
 * read from the YAML files here, not from the generator's own index.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli, tempProject } from '../helpers.js';
import { pageCounts } from '../support/content-counts.js';

const SITE = 'https://shop.example.org';
const env = { SITE_URL: SITE, BRAND_NAME: 'Test Brand' };

interface CatalogueFile {
  platforms: { name: string; sub: { id: number; name: string; packages: { price: number }[] }[] }[];
}
interface ServiceFile {
  path: string;
  subCategory: number;
  structuredData?: boolean;
}
type JsonLd = Record<string, unknown> & { '@type'?: string };

let project: Awaited<ReturnType<typeof tempProject>>;
let services: ServiceFile[];
let subs: Map<number, { platform: string; name: string; prices: number[] }>;
/** Each built page's JSON-LD blocks, parsed; `/` and the service pages. */
const data = new Map<string, JsonLd[]>();

beforeAll(async () => {
  project = await tempProject();
  const content = path.join(project.root, 'content');
  const catalogue = parseYaml(await readFile(path.join(content, 'catalogue.yaml'), 'utf8')) as CatalogueFile;
  subs = new Map(
    catalogue.platforms.flatMap((p) =>
      p.sub.map((s) => [s.id, { platform: p.name, name: s.name, prices: s.packages.map((k) => k.price) }] as const),
    ),
  );
  const files = (await readdir(path.join(content, 'services'))).filter((f) => f.endsWith('.yaml'));
  services = await Promise.all(
    files.map(async (f) => parseYaml(await readFile(path.join(content, 'services', f), 'utf8')) as ServiceFile),
  );

  const result = await runCli(['--root', project.root, 'build'], env);
  expect(result.code, result.stderr).toBe(0);
  for (const routePath of ['/', ...services.map((s) => s.path)]) {
    const file = path.join(project.root, 'dist', routePath === '/' ? 'index.html' : `${routePath.slice(1)}.html`);
    const scripts = parseHtml(await readFile(file, 'utf8')).querySelectorAll('script[type="application/ld+json"]');
    // Every block parses: a block that does not is a failure here, not an empty list.
    data.set(
      routePath,
      scripts.map((s) => JSON.parse(s.textContent) as JsonLd),
    );
  }
});

afterAll(async () => {
  await project?.cleanup();
});

describe('service pages: Service and AggregateOffer from the catalogue', () => {
  it('are the service pages of content/services/', () => {
    expect(services).toHaveLength(pageCounts.service);
  });

  it(
    "each has exactly one Service whose AggregateOffer has the catalogue's lowest and highest price " +
      'and package count, in GBP',
    () => {
      for (const service of services) {
        const sub = subs.get(service.subCategory);
        expect(sub, service.path).toBeDefined();
        const blocks = data.get(service.path)!;
        const found = blocks.filter((d) => d['@type'] === 'Service');
        expect(found, service.path).toHaveLength(1);
        const item = found[0]!;
        const url = SITE + service.path;
        expect(item['@context'], service.path).toBe('https://schema.org');
        expect(item, service.path).toMatchObject({
          url,
          areaServed: 'GB',
          serviceType: `${sub!.platform} ${sub!.name}`,
        });
        expect(typeof item.name === 'string' && item.name.length > 0, service.path).toBe(true);
        expect(typeof item.description === 'string' && item.description.length > 20, service.path).toBe(true);
        // The provider is the trader's Organization (the home page's block) by @id, and named.
        expect(item.provider, service.path).toMatchObject({ '@id': `${SITE}/#organization`, name: 'Test Brand' });

        const low = Math.min(...sub!.prices);
        const high = Math.max(...sub!.prices);
        const offers = item.offers as Record<string, unknown>;
        expect(offers, service.path).toEqual({
          '@type': 'AggregateOffer',
          priceCurrency: 'GBP',
          lowPrice: low.toFixed(2),
          highPrice: high.toFixed(2),
          offerCount: sub!.prices.length,
          url,
        });
        // Prices as schema.org writes them: a dot and two decimals, no currency sign.
        expect(offers.lowPrice, service.path).toMatch(/^\d+\.\d{2}$/);
        expect(Number(offers.lowPrice)).toBe(low);
        expect(Number(offers.highPrice)).toBe(high);
      }
    },
  );

  it("the provider's @id is the Organization of the home page", () => {
    const organization = data.get('/')!.find((d) => d['@type'] === 'Organization');
    expect(organization?.['@id']).toBe(`${SITE}/#organization`);
  });

  it(
    'Organization and WebSite only where structuredData: true (Instagram followers); ' + 'no rating or review anywhere',
    () => {
      expect(services.filter((s) => s.structuredData).map((s) => s.path)).toEqual(['/buy-instagram-followers']);
      for (const service of services) {
        const types = data.get(service.path)!.map((d) => d['@type']);
        const expected = service.structuredData
          ? ['BreadcrumbList', 'Organization', 'WebSite', 'Service']
          : ['BreadcrumbList', 'Service'];
        expect(types.sort(), service.path).toEqual(expected.sort());
        expect(JSON.stringify(data.get(service.path)), service.path).not.toMatch(
          /aggregateRating|"review"|Rating|Review/,
        );
      }
    },
  );
});
