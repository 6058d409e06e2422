import path from 'node:path';
import type { SiteContent } from '../content/load-content.js';
import { imageSources, isMarkdown } from '../content/markdown.js';
import { ProblemList } from '../errors/storefront-error.js';
import { formatField } from '../util/field-path.js';
import { insideProject } from '../util/inside-project.js';
import { readBounded } from '../util/read-bounded.js';
import { MARKDOWN_FILE } from '../util/source-file.js';

/** A link or an image written in content: what it names, and the file and field that hold it. */
export interface ContentLink {
  href: string;
  file: string;
  field: string;
  /** How many times the file holds the same address before this one (0 for the first). */
  nth: number;
}

/**
 * Every link written in content (Markdown links, `path` and `href` fields) and every image of its
 * Markdown, in the order of the files' fields: what the link check and the fragment check read.
 */
export function contentLinks(content: SiteContent): { links: ContentLink[]; images: ContentLink[] } {
  const links: ContentLink[] = [];
  const images: ContentLink[] = [];
  const seen = new Map<string, number>();
  const add = (into: ContentLink[], file: string, at: PropertyKey[], href: string) => {
    const key = `${file}\0${href}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    into.push({ href, file, field: formatField(at), nth });
  };
  // The field being walked, as one stack (a large catalogue has thousands of fields).
  const at: PropertyKey[] = [];
  const walk = (file: string, value: unknown) => {
    if (isMarkdown(value)) {
      for (const href of value.links) add(links, file, at, href);
      for (const src of imageSources(value.html)) add(images, file, at, src);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        at.push(i);
        walk(file, item);
        at.pop();
      });
    } else if (value && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) {
        at.push(key);
        if ((key === 'path' || key === 'href') && typeof item === 'string') add(links, file, at, item);
        else walk(file, item);
        at.pop();
      }
    }
  };
  walk('content/site.yaml', content.site);
  for (const { file, page } of content.pages) walk(file, page);
  for (const { file, page } of content.services) walk(file, page);
  at.push('(body)');
  for (const { file, body } of content.textPages) walk(file, body);
  for (const post of content.posts) for (const href of post.links) add(links, post.source, at, href);
  return { links, images };
}

/**
 * Where in its file a link is written, line and column from 1: the `nth` time its address
 * appears in the file's text (as written, or as Markdown encodes it: `/café` is `/caf%C3%A9`).
 * Files are read only when a problem is reported, once each; a post from WordPress (its source
 * is an address) or an address the text does not hold has no line.
 */
export function linkPlacer(root: string): (link: ContentLink) => { line?: number; column?: number } {
  const texts = new Map<string, string | undefined>();
  const textOf = (file: string) => {
    if (!texts.has(file)) {
      const absolute = path.join(root, file);
      // Read as the content stage read it: inside the project, within its size limit.
      const real = insideProject(root, absolute, new ProblemList());
      const bytes = real && readBounded(real, file, MARKDOWN_FILE, new ProblemList(), absolute);
      texts.set(file, bytes?.toString('utf8'));
    }
    return texts.get(file);
  };
  return (link) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.file)) return {};
    const text = textOf(link.file);
    if (text === undefined) return {};
    for (const written of new Set([link.href, safeDecode(link.href)])) {
      let index = -1;
      for (let n = 0; n <= link.nth; n++) {
        index = text.indexOf(written, index + 1);
        if (index === -1) break;
      }
      if (index === -1) continue;
      const before = text.slice(0, index);
      const lineStart = before.lastIndexOf('\n') + 1;
      return { line: before.split('\n').length, column: index - lineStart + 1 };
    }
    return {};
  };
}

function safeDecode(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

/**
 * The link of content that a link of the page `on` comes from (`leadsThere` tells the same link
 * by where it leads): one the page's own file writes (`pageSource`), else one any file writes
 * (site.yaml's are on every page), else none (the templates made it).
 */
export function writtenLink(
  links: readonly ContentLink[],
  pageSource: string | undefined,
  leadsThere: (link: ContentLink) => boolean,
): ContentLink | undefined {
  return links.find((link) => link.file === pageSource && leadsThere(link)) ?? links.find(leadsThere);
}

/** A root-relative address as the pages have it, under the site's base path (render/base-path.ts). */
export function asRendered(href: string, basePath: string): string {
  return /^\/(?!\/)/.test(href) ? basePath + href : href;
}
