// Lighthouse audit of a built site, mobile and desktop, for a developer to read:
//   npm run compile && node bin/storefront.js build --out /tmp/site
//   node scripts/audit.mjs [--out DIR] [--mobile] [path ...]   (default DIR: dist; paths: PAGES below;
//   the path `post` stands for the first post /blog links to)
// Serves DIR with the real preview server on 127.0.0.1 (free port), runs Lighthouse in Debian's
// Chromium on a fixed list of pages, and prints one row per page and mode (category scores,
// LCP, CLS, TBT, bytes transferred by resource type), the failing audits behind every score
// below 100 (plus failing weight-0 accessibility, best-practices and SEO audits, which Lighthouse
// hides from the score), and the gzipped HTML + CSS + JS of /buy-instagram-followers against its
// 30 KB budget. It reports, it does not judge: the exit status is always 0. The preview server
// does not compress, so the byte columns show uncompressed sizes.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { startPreview } from '../lib/bundle/preview-server.js';
import { CHROMIUM_ARGS, chromiumPath } from '../test/support/test-tools.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outDir = path.resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : 'dist');
if (outIndex >= 0) args.splice(outIndex, 2);
const mobileOnly = args.includes('--mobile');
const chosenPaths = args.filter((arg) => arg !== '--mobile');

const PAGES = [
  '/',
  '/buy-instagram-followers',
  '/buy-tiktok-likes',
  '/buy-youtube-subscribers',
  '/about',
  '/contact',
  '/blog',
];
const NOT_FOUND = '/no-such-page';
const BUDGET_PAGE = '/buy-instagram-followers';
const BUDGET_BYTES = 30 * 1024;
const EXPECTED_ON_404 =
  "http-status-code, is-crawlable (noindex) and errors-in-console (the document's own 404) are expected on a 404 page";
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CATEGORY_SHORT = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'bp', seo: 'seo' };
// undefined: Lighthouse's default (mobile) config
const MODES = mobileOnly ? { mobile: undefined } : { mobile: undefined, desktop: desktopConfig };
// chrome-launcher's headless mode is --headless=new; the other flags are the tests'.
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS.filter((flag) => flag !== '--headless')];

const kb = (bytes) => (bytes / 1024).toFixed(1);
const pad = (value, width) => String(value).padStart(width);

/** The first blog post linked from /blog (its href), or undefined. */
async function firstPostPath(base) {
  const html = await (await fetch(`${base}/blog`)).text();
  const hrefs = [...html.matchAll(/href="(\/blog\/[^"#?]+)"/g)].map((m) => m[1]);
  return hrefs.find((href) => !href.startsWith('/blog/page/') && !href.endsWith('.xml'));
}

/** Runs Lighthouse once; returns the LHR, or throws with the runtime error. */
async function audit(url, port, config, extraFlags = {}) {
  const flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, ...extraFlags };
  const result = await lighthouse(url, flags, config);
  if (!result) throw new Error('Lighthouse returned no result');
  if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

/** Bytes transferred by resource type, from the resource-summary audit. */
function bytesByType(lhr) {
  const items = lhr.audits['resource-summary']?.details?.items ?? [];
  const size = (type) => items.find((item) => item.resourceType === type)?.transferSize ?? 0;
  const main = ['document', 'stylesheet', 'script', 'image'];
  const known = main.reduce((sum, type) => sum + size(type), 0);
  return [...main.map(size), Math.max(0, size('total') - known)]; // other: fonts, media, favicon, ...
}

/**
 * Audits of a category that fail: score < 1, and scored (not notApplicable, informative, manual).
 * counted: the audits that weigh in the category score; otherwise those of weight 0, which
 * Lighthouse runs and hides (e.g. label-content-name-mismatch) but which are real problems too.
 */
function failingAudits(lhr, categoryId, counted = true) {
  const skip = new Set(['notApplicable', 'informative', 'manual']);
  return lhr.categories[categoryId].auditRefs
    .filter((ref) => ref.weight > 0 === counted)
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (a) =>
        a && !skip.has(a.scoreDisplayMode) && (a.scoreDisplayMode === 'error' || (a.score !== null && a.score < 1)),
    )
    .map(
      (a) =>
        `${a.id} (${a.score === null ? 'error' : Math.round(a.score * 100)}): ` +
        `${a.title}${a.displayValue ? ` [${a.displayValue}]` : ''}` +
        examples(a)
          .map((example) => `\n        at ${example}`)
          .join(''),
    );
}

/** Up to three offending elements, URLs or messages of an audit, so the fix can be found. */
function examples(audit) {
  const items = audit.details?.items ?? [];
  return items
    .slice(0, 3)
    .map((item) => {
      const where = item.node?.snippet ?? item.href ?? item.url ?? item.source?.url ?? '';
      const what = item.description ?? item.text ?? '';
      return `${where} ${typeof what === 'string' ? what : ''}`.replace(/\s+/g, ' ').trim().slice(0, 160);
    })
    .filter(Boolean);
}

/** Requests that left 127.0.0.1 (the network is closed; any would stall or fail the run). */
function externalRequests(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items.map((item) => item.url).filter((url) => /^https?:/.test(url) && new URL(url).hostname !== '127.0.0.1');
}

const HEADER = [
  'page',
  'mode',
  'perf',
  'a11y',
  'bp',
  'seo',
  'LCP ms',
  'CLS',
  'TBT ms',
  'doc KB',
  'css KB',
  'js KB',
  'img KB',
  'other KB',
];
const WIDTHS = [38, 7, 4, 4, 4, 4, 7, 6, 6, 6, 6, 6, 6, 8];
const row = (cells) =>
  cells.map((cell, i) => (i < 2 ? String(cell).padEnd(WIDTHS[i]) : pad(cell, WIDTHS[i]))).join(' ');

function tableRow(label, mode, lhr) {
  const score = (id) => (lhr.categories[id]?.score == null ? '-' : Math.round(lhr.categories[id].score * 100));
  const metric = (id) => lhr.audits[id]?.numericValue;
  const ms = (id) => (metric(id) == null ? '-' : Math.round(metric(id)));
  const cls = metric('cumulative-layout-shift');
  return row([
    label,
    mode,
    ...CATEGORIES.map(score),
    ms('largest-contentful-paint'),
    cls == null ? '-' : cls.toFixed(3),
    ms('total-blocking-time'),
    ...bytesByType(lhr).map(kb),
  ]);
}

/** Gzipped (level 9) size of the page's HTML and its stylesheets and scripts, each file on its own. */
async function gzipBudget(base) {
  const html = await (await fetch(base + BUDGET_PAGE)).text();
  const assets = [
    ...[...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]),
  ];
  const files = [{ name: BUDGET_PAGE, body: Buffer.from(html) }];
  for (const href of assets)
    files.push({ name: href, body: Buffer.from(await (await fetch(new URL(href, base))).arrayBuffer()) });
  console.log(
    `\nGzipped size of ${BUDGET_PAGE} (HTML + CSS + JS, zlib level 9) against the ${kb(BUDGET_BYTES)} KB budget:`,
  );
  let total = 0;
  for (const { name, body } of files) {
    const gz = gzipSync(body, { level: 9 }).length;
    total += gz;
    console.log(`  ${name.padEnd(40)} ${pad(kb(body.length), 7)} KB raw ${pad(kb(gz), 6)} KB gzipped`);
  }
  const verdict =
    total <= BUDGET_BYTES
      ? `within budget, ${kb(BUDGET_BYTES - total)} KB to spare`
      : `OVER budget by ${kb(total - BUDGET_BYTES)} KB`;
  console.log(`  ${'total'.padEnd(40)} ${pad('', 14)} ${pad(kb(total), 6)} KB gzipped: ${verdict}`);
}

let preview;
let chrome;
try {
  preview = await startPreview(outDir, 0, '127.0.0.1');
  console.log(`Serving ${outDir} at ${preview.url}`);
  chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROME_FLAGS,
  });

  const post = await firstPostPath(preview.url);
  const pages = chosenPaths.length
    ? chosenPaths.map((p) => (p === 'post' ? post : p)).filter(Boolean)
    : [...PAGES, ...(post ? [post] : []), NOT_FOUND];
  if (!post) console.log('No blog post is linked from /blog; skipping the blog-post page.');

  const failures = [];
  console.log(`\n${row(HEADER)}\n${'-'.repeat(row(HEADER).length)}`);
  for (const page of pages) {
    for (const [mode, config] of Object.entries(MODES)) {
      let label = page;
      let lhr;
      try {
        // By default Lighthouse refuses a 404 document (ERRORED_DOCUMENT_REQUEST); ignoreStatusCode
        // lets it audit the real 404 response. Should that still fail, /404 (404.html served with
        // status 200) is audited instead and the row says so.
        lhr = await audit(
          preview.url + page,
          chrome.port,
          config,
          page === NOT_FOUND ? { ignoreStatusCode: true } : {},
        );
      } catch (error) {
        if (page !== NOT_FOUND) {
          console.log(row([page, mode, `error: ${error.message}`]));
          continue;
        }
        label = '/404 (no-such-page refused)';
        lhr = await audit(`${preview.url}/404`, chrome.port, config).catch((e) =>
          console.log(row([label, mode, `error: ${e.message}`])),
        );
        if (!lhr) continue;
      }
      console.log(tableRow(label, mode, lhr));
      for (const id of CATEGORIES) {
        const category = lhr.categories[id];
        if (category?.score != null && category.score < 1)
          failures.push({ label, mode, id, audits: failingAudits(lhr, id) });
        // Weight-0 performance audits are savings estimates (compression, caching): not listed.
        const hidden = id === 'performance' || !category ? [] : failingAudits(lhr, id, false);
        if (hidden.length)
          failures.push({ label, mode, id: `${CATEGORY_SHORT[id]}, weight 0, not in the score`, audits: hidden });
      }
      if (page === NOT_FOUND) failures.push({ label, mode, id: 'note', audits: [EXPECTED_ON_404] });
      for (const warning of lhr.runWarnings ?? []) failures.push({ label, mode, id: 'run warning', audits: [warning] });
      const external = externalRequests(lhr);
      if (external.length) failures.push({ label, mode, id: 'external requests', audits: external });
    }
  }

  console.log('\nFailing audits (behind every score below 100, and weight-0 accessibility/best-practices/SEO audits):');
  if (!failures.length) console.log('  none: every category scores 100 on every page.');
  for (const { label, mode, id, audits } of failures) {
    console.log(`  ${label} [${mode}] ${CATEGORY_SHORT[id] ?? id}:`);
    for (const line of audits.length ? audits : ['(no single failing audit: the score is a weighted metric mix)'])
      console.log(`    - ${line}`);
  }

  await gzipBudget(preview.url);
} catch (error) {
  console.error(`Audit failed: ${error?.stack ?? error}`);
} finally {
  if (chrome) await Promise.resolve(chrome.kill()).catch(() => {});
  if (preview) await preview.close().catch(() => {});
}
process.exit(0);
