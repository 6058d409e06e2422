/**
 * `build --target netlify` read by Netlify's own parsers (the ones its build and `netlify dev`
 * use): `_redirects` with @netlify/redirect-parser, `_headers` with @netlify/headers-parser.
 * No errors, and the rules they read are the ones the site means: the redirects of
 * content/redirects.yaml, the security headers on every path, a year's cache for hashed assets
 * and revalidation for pages, each path given Cache-Control by one rule only (Netlify joins a
 * header that several matching rules set). And the files `netlify deploy` would publish, listed
 * with its walker (folder-walker) and its filter.
 */
import { readdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { parseAllRedirects } from '@netlify/redirect-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import { loadContent } from '../../src/content/load-content.js';
import { securityHeaders } from '../../src/output/http-headers.js';
import { buildRouteTable, outputFile } from '../../src/routes/route-table.js';
import { repoRoot, runCli, tempProject } from '../helpers.js';

const SITE = 'https://www.example.com';
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface WalkedFile {
  relname: string;
  basename: string;
  type?: 'file' | 'directory';
}
/** folder-walker (CommonJS, no types): the walker `netlify deploy` lists the publish folder with. */
const walker = createRequire(import.meta.url)('folder-walker') as (
  dirs: string[],
  opts: { filter: (name: string) => boolean },
) => NodeJS.EventEmitter;

/** Every file the walker yields (an old-style object stream: events, not async iteration). */
function walk(dir: string, filter: (name: string) => boolean): Promise<WalkedFile[]> {
  return new Promise((resolve, reject) => {
    const items: WalkedFile[] = [];
    walker([dir], { filter })
      .on('data', (item: WalkedFile) => items.push(item))
      .on('error', reject)
      .on('end', () => resolve(items));
  });
}

/**
 * The filter of `netlify deploy` (netlify-cli 26.2.0, dist/commands/deploy/deploy.js,
 * getDeployFilesFilter) for a publish folder that is not the project root: no dot files, no
 * __MACOSX, and no _redirects or _headers, which Netlify reads into the deploy's configuration
 * instead of publishing them.
 */
function deployFilter(deployFolder: string): (name: string) => boolean {
  return (name) => {
    if (name === deployFolder) return true;
    const base = path.basename(name);
    return !(
      (base.startsWith('.') && base !== '.well-known') ||
      base.startsWith('__MACOSX') ||
      base === '_redirects' ||
      base === '_headers'
    );
  };
}

/** What the build is meant to redirect: the site's own list, not the file under test. */
const redirects = parse(readFileSync(path.join(repoRoot, 'content', 'redirects.yaml'), 'utf8')) as {
  from: string;
  to: string;
}[];

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
let security: Record<string, string>;
let pagePaths: string[];
let pageFiles: string[];
const dist = () => path.join(project!.root, 'dist');

beforeAll(async () => {
  project = await tempProject();
  const env = { SITE_URL: SITE };
  const built = await runCli(['--root', project.root, 'build', '--target', 'netlify'], env);
  expect(built.code, built.stderr).toBe(0);
  const config = await loadConfig(project.root, env);
  security = securityHeaders(config);
  pagePaths = buildRouteTable(await loadContent(project.root, config)).routes.map((route) => route.path);
  pageFiles = pagePaths.map(outputFile);
});

afterAll(async () => {
  await project?.cleanup();
});

describe('build --target netlify read by Netlify’s parsers', () => {
  it('_redirects: no errors; every redirect of content/redirects.yaml, 301, forced', async () => {
    const { redirects: parsed, errors } = await parseAllRedirects({
      redirectsFiles: [path.join(dist(), '_redirects')],
      configRedirects: [],
      minimal: true,
    });
    expect(errors).toEqual([]);
    expect(redirects.length).toBeGreaterThanOrEqual(11);
    expect(parsed).toEqual(
      redirects.map(({ from, to }) => ({ from, to, status: 301, force: true, query: {}, conditions: {}, headers: {} })),
    );
  });

  it('_headers: no errors; security headers on /*, immutable on /assets/*', async () => {
    const { headers, errors } = await parseAllHeaders({
      headersFiles: [path.join(dist(), '_headers')],
      configHeaders: [],
      minimal: true,
    });
    expect(errors).toEqual([]);
    expect(headers.find((h) => h.for === '/*')?.values).toEqual(security);
    expect(headers.find((h) => h.for === '/assets/*')?.values).toEqual({ 'Cache-Control': IMMUTABLE });
    // The security headers of an https site, as the contract names them.
    expect(Object.keys(security).sort()).toEqual(
      [
        'Content-Security-Policy',
        'Permissions-Policy',
        'Referrer-Policy',
        'Strict-Transport-Security',
        'X-Content-Type-Options',
        'X-Frame-Options',
      ].sort(),
    );
    expect(security['X-Content-Type-Options']).toBe('nosniff');
    expect(security['X-Frame-Options']).toBe('DENY');
    expect(security['Content-Security-Policy']).toContain("script-src 'self'");
  });

  it(
    'each page gets, from the rules Netlify matches, the security headers and no Cache-Control ' +
      '(Netlify sends its own, which revalidates); each hashed asset one Cache-Control',
    async () => {
      const { headers, errors } = await parseAllHeaders({
        headersFiles: [path.join(dist(), '_headers')],
        configHeaders: [],
        minimal: false,
      });
      expect(errors).toEqual([]);
      const rules = headers as Header[];
      /** What Netlify sends for a path: every matching rule, a repeated header's values joined. */
      const sent = (urlPath: string) => {
        const result: Record<string, string[]> = {};
        for (const rule of rules.filter((r) => r.forRegExp.test(urlPath))) {
          for (const [name, value] of Object.entries(rule.values)) {
            result[name] ??= [];
            result[name].push(value);
          }
        }
        return result;
      };
      const expected = (cache?: string) => ({
        ...Object.fromEntries(Object.entries(security).map(([k, v]) => [k, [v]])),
        ...(cache ? { 'Cache-Control': [cache] } : {}),
      });
      expect(pagePaths.length).toBeGreaterThanOrEqual(17);
      for (const page of pagePaths) expect(sent(page), page).toEqual(expected());
      const assets = (await readdir(path.join(dist(), 'assets'), { recursive: true, withFileTypes: true })).filter(
        (e) => e.isFile(),
      );
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) {
        const urlPath = `/${path.relative(dist(), path.join(asset.parentPath, asset.name)).split(path.sep).join('/')}`;
        expect(sent(urlPath), urlPath).toEqual(expected(IMMUTABLE));
      }
    },
  );

  it(
    'netlify deploy would publish every page and 404.html, nothing else hidden, ' + 'and no file for another host',
    async () => {
      const published = (await walk(dist(), deployFilter(dist())))
        .filter((item) => item.type === 'file')
        .map((item) => item.relname.split(path.sep).join('/'));
      const all = (await readdir(dist(), { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => path.relative(dist(), path.join(e.parentPath, e.name)).split(path.sep).join('/'));
      // Only the two rule files stay out; the build leaves no dot file behind for Netlify to drop.
      expect(all.filter((f) => !published.includes(f)).sort()).toEqual(['_headers', '_redirects']);
      for (const file of [...pageFiles, '404.html']) expect(published, file).toContain(file);
      expect(published).not.toContain('_nginx.conf');
      // No redirect page at an old path: _redirects answers it (`/index` is the home page's own file).
      for (const { from } of redirects) {
        const file = outputFile(from);
        if (!pageFiles.includes(file)) expect(published, from).not.toContain(file);
      }
    },
  );
});
