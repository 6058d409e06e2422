/**
 * What a service page promises, on the built pages (issue 40): each service's why-choose shows
 * the promises that apply to it, each linking to its definition in the terms, which is there;
 * no page speaks of another service's units; a fact is said once in a page's copy and at most
 * once more in its answers; About and Contact say who trades, how to reach them and when.
 * Everything expected is read from content/, not from the build.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import { loadContent, type SiteContent } from '../../src/content/load-content.js';
import { buildRouteTable, outputFile } from '../../src/routes/route-table.js';
import { repoRoot, runCli, tempProject } from '../helpers.js';

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
let content: SiteContent;
const pages = new Map<string, HTMLElement>();

/** site.yaml as written: the guarantees' titles and which services they are for. */
interface SiteFile {
  claims: Record<string, string>;
  guarantees: { title: string; for?: string[] }[];
  contactChannels: { icon: string }[];
}
const site = parseYaml(await readFile(path.join(repoRoot, 'content', 'site.yaml'), 'utf8')) as SiteFile;

beforeAll(async () => {
  project = await tempProject();
  const built = await runCli(['--root', project.root, 'build']);
  expect(built.code, built.stderr).toBe(0);
  content = await loadContent(project.root, await loadConfig(project.root, {}));
  for (const route of buildRouteTable(content).routes) {
    const file = path.join(project.root, 'dist', outputFile(route.path));
    pages.set(route.path, parseHtml(await readFile(file, 'utf8')));
  }
}, 60_000);

afterAll(() => project?.cleanup());

const page = (routePath: string) => pages.get(routePath)!;
const text = (el: HTMLElement | null | undefined) => (el?.text ?? '').replace(/\s+/g, ' ').trim();
/** Each service page with the catalogue's kind and platform of what it sells. */
const services = () =>
  content.services.map(({ page: servicePage }) => {
    const platform = content.catalogue.platforms.find((p) => p.sub.some((s) => s.id === servicePage.subCategory))!;
    const sub = platform.sub.find((s) => s.id === servicePage.subCategory)!;
    return { path: servicePage.path, kind: sub.service, platform: platform.name };
  });

describe("a service page's promises", () => {
  it('are the ones for its service, each linking to its definition in the terms, which is there', () => {
    const terms = page('/term-of-service');
    for (const service of services()) {
      const cards = page(service.path).querySelectorAll('#why-choose .card');
      const expected = site.guarantees
        .filter((promise) => !promise.for || promise.for.includes(service.kind))
        .map((promise) => promise.title.replace(/\{\{(\w+)\}\}/g, (_, name: string) => site.claims[name]!));
      expect(
        cards.map((card) => text(card.querySelector('h3'))),
        service.path,
      ).toEqual(expected);
      for (const link of page(service.path).querySelectorAll('#why-choose a[href^="/term-of-service#"]')) {
        const id = link.getAttribute('href')!.split('#')[1]!;
        expect(terms.getElementById(id), `${service.path} links to #${id}`).not.toBeNull();
      }
    }
    // Every promise limited to some services is defined in the terms and linked from its cards.
    for (const promise of site.guarantees.filter((g) => g.for)) {
      const pageWith = services().find((s) => promise.for!.includes(s.kind))!;
      const card = page(pageWith.path)
        .querySelectorAll('#why-choose .card')
        .find((c) => text(c.querySelector('h3')) === promise.title);
      expect(card?.querySelector('a[href^="/term-of-service#"]'), promise.title).toBeTruthy();
    }
  });

  it("never speak of another service's units or of watch hours where none are sold", () => {
    for (const service of services()) {
      const main = text(page(service.path).querySelector('main'));
      if (service.kind !== 'watch-hours') expect(main, service.path).not.toMatch(/watch hours? included/i);
      if (service.platform !== 'YouTube') expect(main, service.path).not.toMatch(/watch (hours|time)/i);
      expect(main, service.path).not.toMatch(/followers, subscribers, likes or views/i);
    }
  });

  it('state each claim once in the copy and at most once more in the answers', () => {
    const claims = Object.values(site.claims).filter((claim) => claim.length > 4);
    for (const service of services()) {
      const html = page(service.path);
      const answers = text(html.querySelector('#faq'));
      const rest = text(html.querySelector('main')).replace(answers, '');
      const count = (within: string, what: string) => within.split(what).length - 1;
      for (const claim of [...claims, 'password']) {
        expect(count(rest, claim), `${service.path}: "${claim}" outside the FAQ`).toBeLessThanOrEqual(1);
        expect(count(answers, claim), `${service.path}: "${claim}" in the FAQ`).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('About and Contact', () => {
  it('say who trades, how to reach them and when they answer', () => {
    const hours = site.claims.supportHours!;
    for (const routePath of ['/about', '/contact']) {
      const html = page(routePath);
      expect(text(html.querySelector('main')), routePath).toContain(content.trader.legalName);
      const channels = html.querySelectorAll('main .channel');
      expect(channels, routePath).toHaveLength(site.contactChannels.length);
      for (const channel of channels) expect(text(channel), routePath).toContain(hours);
      expect(html.querySelector(`main .channel a[href^="tel:"]`), routePath).toBeTruthy();
    }
    // About's hero leads to each platform's service page of the lowest price its tile shows (no picker there).
    const low = (sub: SiteContent['catalogue']['platforms'][number]['sub'][number]) =>
      Math.min(...sub.packages.map((k) => k.price));
    const firstPages = content.catalogue.platforms.flatMap((platform) => {
      const withPage = platform.sub
        .filter((sub) => sub.packages.length > 0 && content.services.some((s) => s.page.subCategory === sub.id))
        .sort((a, b) => low(a) - low(b))[0];
      return withPage ? [content.services.find((s) => s.page.subCategory === withPage.id)!.page.path] : [];
    });
    expect(
      page('/about')
        .querySelectorAll('.hero-visual a')
        .map((a) => a.getAttribute('href')),
    ).toEqual(firstPages);
  });
});
