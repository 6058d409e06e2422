import type { SiteContent } from '../content/load-content.js';
import { formatField } from '../content/field-path.js';
import { Markdown } from '../content/markdown.js';
import { codes } from '../errors/codes.js';
import { ProblemList } from '../errors/storefront-error.js';
import type { RouteTable } from './route-table.js';

/** The route path an internal href points to, or undefined for external links and anchors. */
export function internalTarget(href: string): string | undefined {
  if (!href.startsWith('/') || href.startsWith('//')) return undefined;
  const bare = href.replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/**
 * Every internal link written in content (Markdown links, `path` and `href` fields) must name a
 * route or a redirect. Reported with the file and field, before anything is rendered.
 */
export function checkContentLinks(content: SiteContent, table: RouteTable): void {
  const problems = new ProblemList();
  const known = new Set<string>([...table.byPath.keys(), ...table.redirects.map((r) => r.from)]);
  const check = (file: string, at: PropertyKey[], href: string) => {
    const target = internalTarget(href);
    if (target === undefined || known.has(target)) return;
    problems.add({
      code: codes.brokenInternalLink,
      file,
      field: formatField(at),
      message: `The link to ${href} points to no page of the site.`,
      hint: `Link to an existing route, e.g. ${nearest(target, [...table.byPath.keys()])}, or add a redirect in content/redirects.yaml.`,
    });
  };
  const walk = (file: string, value: unknown, at: PropertyKey[]) => {
    if (value instanceof Markdown) {
      for (const href of value.links) check(file, at, href);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(file, item, [...at, i]));
    } else if (value && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) {
        if ((key === 'path' || key === 'href') && typeof item === 'string') check(file, [...at, key], item);
        else walk(file, item, [...at, key]);
      }
    }
  };
  walk('content/site.yaml', content.site, []);
  for (const { file, page } of content.pages) walk(file, page, []);
  for (const { file, page } of content.services) walk(file, page, []);
  for (const { file, body } of content.textPages) walk(file, body, ['(body)']);
  for (const post of content.posts) for (const href of post.links) check(post.source, ['(body)'], href);
  problems.throwIfAny('Nothing was written; dist/ is as it was.');
}

/** The route closest in spelling, to suggest in the hint. */
function nearest(target: string, candidates: string[]): string {
  let best = candidates[0] ?? '/';
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(target, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
