import { envNames } from '../config/load-config.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import type { HostLimit, HostLimits } from '../hosts/host.js';
import { CONFIG_FILE } from '../util/content-files.js';

/**
 * A site the host would refuse is refused here, before it replaces the output folder: a build
 * that goes green and a deploy that fails at the host would leave the old site up with no word
 * of why. `files` is what the build wrote, each path (with forward slashes) and its size: what
 * the host receives, .br and .gz copies included where the build wrote them. `texts`: the text of
 * the rule files the host reads (`_redirects`, `_headers`) the build wrote.
 */
export function overHostLimits(
  files: ReadonlyMap<string, number>,
  limits: HostLimits | undefined,
  texts: ReadonlyMap<string, string> = new Map(),
): Problem[] {
  if (!limits) return [];
  const byName = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytesOf = (test: (file: string) => boolean) =>
    byName.reduce((sum, [file, size]) => sum + (test(file) ? size : 0), 0);
  const copy = (file: string) => /\.(br|gz)$/.test(file);
  const postImage = (file: string) => file.startsWith('assets/img/');
  const contentImage = (file: string) => file.startsWith('images/');
  // What every problem of this site says: the host, the .br and .gz copies, the post images' files.
  const site = {
    host: limits.host,
    copies: byName.filter(([file]) => copy(file)).length,
    images: byName.filter(([file]) => postImage(file)).length,
  };
  const problems: Problem[] = [];

  if (limits.files && files.size > limits.files.limit) {
    // Only Cloudflare Pages has a paid plan that takes more (its setting is cfPagesMaxFiles).
    const more = limits.files.paidPlan;
    const paidPlan =
      more !== undefined && limits.files.limit < more
        ? { files: more, configFile: CONFIG_FILE, variable: envNames.cfPagesMaxFiles }
        : undefined;
    problems.push(
      problem('overHostLimit', { ...site, limit: limits.files, over: 'files', files: files.size, paidPlan }),
    );
  }
  if (limits.fileBytes) {
    for (const [file, size] of byName) {
      if (size <= limits.fileBytes.limit) continue;
      const published = contentImage(file);
      problems.push(
        problem(
          'overHostLimit',
          { ...site, limit: limits.fileBytes, over: 'fileBytes', bytes: size, published },
          { file: published ? `content/${file}` : file },
        ),
      );
    }
  }
  if (limits.siteBytes) {
    const total = byName.reduce((sum, [, size]) => sum + size, 0);
    if (total > limits.siteBytes.limit) {
      const parts = { contentImages: bytesOf(contentImage), postImages: bytesOf(postImage), copies: bytesOf(copy) };
      problems.push(
        problem('overHostLimit', { ...site, limit: limits.siteBytes, over: 'siteBytes', bytes: total, parts }),
      );
    }
  }
  if (limits.filesPerFolder) {
    const perFolder = new Map<string, number>();
    for (const [file] of byName) {
      const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '/';
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    for (const [folder, n] of perFolder) {
      if (n <= limits.filesPerFolder.limit) continue;
      problems.push(
        problem('overHostLimit', { ...site, limit: limits.filesPerFolder, over: 'filesPerFolder', folder, files: n }),
      );
    }
  }
  return [...problems, ...overRuleLimits(texts, limits)];
}

/** The files whose rules a host reads, and whose text overHostLimits is given. */
export const RULE_FILES = ['_redirects', '_headers'];

/**
 * The rules of `_redirects` and `_headers` counted as Cloudflare's own parser counts them
 * (parseRedirects and parseHeaders of wrangler's workers-shared): blank lines and `#` comments
 * aside, each line trimmed, a line too long left out of the count. A redirect whose old address
 * holds a splat `*` or a placeholder `:name` is dynamic, and so is every one after it; a header
 * rule is a line that starts with `/` or `scheme://` (its headers are the lines under it).
 */
function overRuleLimits(texts: ReadonlyMap<string, string>, limits: HostLimits): Problem[] {
  type Over = 'staticRedirects' | 'dynamicRedirects' | 'redirectChars' | 'headerRules' | 'headerLineChars';
  type Line = { line: number; chars: number; start: string };
  const problems: Problem[] = [];
  // Over a count of rules; or, with `first`, any line over a length (`count` of them). Redirects
  // are written from content/redirects.yaml, where they are fixed.
  const check = (over: Over, count: number, first?: Line) => {
    const limit = limits[over];
    const place = over.startsWith('header') ? {} : { file: 'content/redirects.yaml' };
    if (limit && count > (first ? 0 : limit.limit))
      problems.push(problem('overHostRules', { host: limits.host, limit, over, count, first }, place));
  };
  // Each rule line of the file to `count`, but those over `maxChars`, which are returned.
  const read = (file: string, maxChars: HostLimit | undefined, count: (line: string) => void): Line[] => {
    const long: Line[] = [];
    (texts.get(file) ?? '').split('\n').forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      if (maxChars && line.length > maxChars.limit)
        long.push({ line: i + 1, chars: line.length, start: `${line.slice(0, 60)}…` });
      else count(line);
    });
    return long;
  };

  let statics = 0;
  let dynamics = 0;
  const longRedirects = read('_redirects', limits.redirectChars, (line) => {
    const from = line.split(/\s+/)[0] ?? '';
    if (dynamics === 0 && !/\*|:[A-Za-z]/.test(from)) statics += 1;
    else dynamics += 1;
  });
  check('staticRedirects', statics);
  check('dynamicRedirects', dynamics);
  check('redirectChars', longRedirects.length, longRedirects[0]);

  let rules = 0;
  const longHeaders = read('_headers', limits.headerLineChars, (line) => {
    if (/^(\S+:\/\/|\/)/.test(line)) rules += 1;
  });
  check('headerRules', rules);
  check('headerLineChars', longHeaders.length, longHeaders[0]);
  return problems;
}

/** Throws every limit the site is over, together. */
export function refuseOverHostLimits(
  files: ReadonlyMap<string, number>,
  limits: HostLimits | undefined,
  texts?: ReadonlyMap<string, string>,
): void {
  const problems = overHostLimits(files, limits, texts);
  if (problems.length > 0)
    throw new StorefrontError(
      problems,
      'The output folder was not changed: it holds the previous build, if there was one.',
    );
}
