import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { TARGETS, type Target } from '../config/deploy-target.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { packageRoot } from '../package-root.js';
import { noContentFolder } from '../util/project-folder.js';
import {
  ALL_INTERFACES,
  EXPOSED_NOTE,
  LOOPBACK,
  normaliseHost,
  reachableFromNetwork,
  servingLines,
} from '../preview/listen-address.js';
import { headline, stageLines, summaryDetail } from './build-report.js';
import { isHelpOrVersion, throwFlagErrors } from './flag-errors.js';
import { addGlobalOptions } from './global-options.js';
import { output } from './output.js';

const version = (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string })
  .version;

/** Decimal digits only: Number() would also take `0x50` (port 80), `1e3`, ` 80` and `+80`. */
function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('must be a whole number from 0 to 65535, in decimal digits.');
  }
  return port;
}

/** `--host` of preview and dev: without a value every IPv4 interface, else one address or name. */
function hostOption(): Option {
  return new Option(
    '--host [addr]',
    'address to listen on; alone, all IPv4 interfaces, so other devices on the network can open the site',
  )
    .default(LOOPBACK)
    .preset(ALL_INTERFACES)
    .argParser((value: string) => {
      const host = normaliseHost(value);
      if (host === undefined)
        throw new InvalidArgumentError('must be an IP address (192.168.1.20, ::) or a host name (my-laptop.local).');
      return host;
    });
}

function parseWhole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number.');
  return n;
}

interface BuildFlags {
  out: string;
  posts?: string;
  cms?: string;
  offline?: boolean;
  staleOk?: boolean;
  cmsTimeout: number;
  cmsRetries: number;
  precompress?: boolean;
  allowPlaceholders?: boolean;
  drafts?: boolean;
  base?: string;
  target?: Target;
}

function countByHost(urls: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const host = URL.canParse(url) && new URL(url).origin !== 'null' ? new URL(url).origin : url.split(':')[0]!;
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  return counts;
}

/** The signals that end a long-running command: Ctrl-C, a service manager's TERM, a closed terminal's HUP. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ctrl-C, a service manager's TERM or a closed terminal's HUP closes what a long-running command
 * started (dev removes its temporary folder), then exits 0. Closed once, whatever signals follow.
 */
function stopOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void close().then(() => process.exit(0));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
}

/**
 * Outside a project folder (no content/ under --root, by default the current folder) a command
 * that reads the content stops with one problem, before it reads any setting or file.
 */
function requireProjectFolder(root: string): void {
  const problem = noContentFolder(root);
  if (problem) throw new StorefrontError(problem);
}

export function createProgram(): Command {
  const program = new Command();
  program
    .name('storefront')
    .description('Builds the storefront from content/ into a static folder any host can serve.')
    .version(version)
    .option('--root <dir>', 'project folder holding content/', process.cwd())
    .option('--debug', 'show stack traces of errors');
  addGlobalOptions(program);

  program
    .command('build')
    .description('build the site into the output folder (swapped in only when the whole build succeeds)')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--posts <dir>', 'read the local blog from this folder instead of content/blog')
    .option('--cms <url>', 'take the blog from this WordPress REST API root (overrides CMS_API_URL)')
    .option('--offline', 'build the CMS blog from the cache in .cache/, without the network')
    .option('--stale-ok', 'if the CMS cannot be reached, build from the cache, with a warning')
    .option('--cms-timeout <ms>', 'time limit of one CMS request', parseWhole, 15000)
    .option('--cms-retries <n>', 'retries of a failed CMS request', parseWhole, 3)
    .option('--precompress', 'write .br and .gz copies of every page and text asset (for nginx, preview, a bucket)')
    .option(
      '--base <path>',
      'serve the site from this folder of its origin, e.g. /shop/ for a GitHub Pages project site (overrides BASE_PATH)',
    )
    .addOption(
      new Option(
        '--target <host>',
        'the host to write its own files for (default: detected from NETLIFY or CF_PAGES, else static; overrides DEPLOY_TARGET)',
      ).choices(TARGETS),
    )
    .option(
      '--drafts',
      'also build drafts and posts dated after today, marked and noindex (to look at them before they are published)',
    )
    .option(
      '--allow-placeholders',
      'let example values (example.com, drama numbers, the example trader) through for a real SITE_URL: a staging build',
    )
    .action(async (options: BuildFlags) => {
      const { root } = program.opts<{ root: string }>();
      requireProjectFolder(root);
      if (options.offline && options.staleOk) {
        throw new StorefrontError(problem('offlineWithStaleOk', {}));
      }
      output.status('Reading the settings and the content…');
      // Loaded on demand, as each command's code: `--help` and `preview` need none of the build's.
      const { build } = await import('../build.js');
      const summary = await build({
        root,
        outDir: options.out,
        postsDir: options.posts,
        cmsApiUrl: options.cms,
        cmsMode: options.offline ? 'offline' : options.staleOk ? 'stale-ok' : 'online',
        cmsTimeoutMs: options.cmsTimeout,
        cmsRetries: options.cmsRetries,
        precompress: options.precompress,
        allowPlaceholders: options.allowPlaceholders,
        drafts: options.drafts,
        basePath: options.base,
        target: options.target,
        log: (line) => (/^WARNING\b/.test(line) ? output.warn(line) : output.info(line)),
        progress: (stage, done, total) => {
          const text =
            stage === 'fetch' ? `Fetching posts: page ${done} of ${total}` : `Rendering pages: ${done} of ${total}`;
          // Plain lines: at most one per tenth of the work, and none for less than 100 pages.
          output.progress(stage, text, done, total, stage === 'render' ? 100 : 1);
          // The other files and the move into place come after the last page (on a terminal only).
          if (stage === 'render' && done === total) output.status('Writing the sitemap, the feed and the other files…');
        },
      }).finally(() => output.endProgress());
      for (const warning of summary.warnings) output.warn(`warning: ${warning}`);
      for (const line of stageLines(summary, options.posts ?? 'content/blog')) output.detail(line);
      for (const note of summary.blog.notes) output.info(`note: ${note}`);
      output.result(headline(summary, process.cwd(), output.colours.out));
      for (const line of summaryDetail(summary, output.colours.out)) output.result(line);
    });

  program
    .command('preview')
    .description('serve the built folder on 127.0.0.1 (or --host) with clean URLs, redirects and the 404 page')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 4173)
    .addOption(hostOption())
    .option('--out <dir>', 'folder to serve', 'dist')
    .action(async (options: { port: number; host: string; out: string }) => {
      const { root } = program.opts<{ root: string }>();
      const dir = path.resolve(root, options.out);
      try {
        readFileSync(path.join(dir, 'index.html'));
      } catch (error) {
        const file = path.join(options.out, 'index.html');
        throw new StorefrontError(problem('previewNoSite', {}, { file }), undefined, { cause: error });
      }
      const { servedBasePath, startPreview } = await import('../preview/preview-server.js');
      const preview = await startPreview(dir, options.port, options.host);
      if (output.verbose) {
        preview.server.on('request', (req, res) =>
          res.once('finish', () => output.detail(`  ${res.statusCode} ${req.method} ${req.url}`)),
        );
      }
      for (const line of servingLines(`Serving ${options.out}`, preview.addresses)) output.result(line);
      const base = servedBasePath(dir);
      if (base) output.result(`It was built for the folder ${base}/: open ${preview.url}${base}/`);
      if (reachableFromNetwork(options.host)) output.info(EXPOSED_NOTE);
      stopOnSignal(() => preview.close());
    });

  program
    .command('dev')
    .description(
      'build, serve on 127.0.0.1 (or --host), and rebuild and reload open pages on every change to content/ and templates/',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 4321)
    .addOption(hostOption())
    .option('--open', 'open the site in the system browser')
    .action(async (options: { port: number; host: string; open?: boolean }) => {
      const { root, debug } = program.opts<{ root: string; debug?: boolean }>();
      requireProjectFolder(root);
      // Loaded on demand: the watcher, the worker and the dev server are only needed here.
      const { runDev } = await import('../dev/dev-command.js');
      const dev = await runDev({ root, port: options.port, host: options.host, open: options.open === true, debug });
      stopOnSignal(() => dev.stop());
    });

  program
    .command('check')
    .description(
      'serve the built folder and check every link, redirect, canonical and sitemap URL; fail on any problem',
    )
    .option('--out <dir>', 'folder to check', 'dist')
    .option('--external', 'also fetch external links (the checkout site, CMS images)')
    .option(
      '--checkout',
      'also check that every Buy Now leads to a product that can be bought at the price shown (the checkout setting checkoutVerify makes it the default)',
    )
    .option('--offline', "with --checkout: read the checkout's products from the cache in .cache/, without the network")
    .action(async (options: { out: string; external?: boolean; checkout?: boolean; offline?: boolean }) => {
      const { root } = program.opts<{ root: string }>();
      // Loaded on demand: the crawler is not needed to build (start-up time matters).
      const { checkSite } = await import('../check/check-site.js');
      const started = performance.now();
      const report = await checkSite({ outDir: path.resolve(root, options.out), external: options.external });
      const { loadConfig } = await import('../config/load-config.js');
      const config = await loadConfig(root, process.env);
      if (options.checkout || config.checkoutVerify) {
        const { checkCheckout } = await import('../checkout/check-checkout.js');
        const checkout = await checkCheckout(root, config, options.offline === true);
        report.problems.push(...checkout.problems);
        output.result(checkout.summary);
      }
      // Fetched links are listed one by one; the others are summed up by host.
      const externalLines = options.external
        ? report.external.map((e) => `  ${e.url} ${e.state ?? ''}${e.status ? ` (HTTP ${e.status})` : ''}`)
        : [...countByHost(report.external.map((e) => e.url))].map(
            ([host, n]) => `  ${host}  ${n} link${n > 1 ? 's' : ''}`,
          );
      if (externalLines.length) {
        output.result(`External links${options.external ? '' : ' (not fetched; --external fetches them)'}:`);
        for (const line of externalLines) output.result(line);
      }
      if (report.problems.length) {
        throw new StorefrontError(
          report.problems,
          `Checked ${report.pagesCrawled} pages and ${report.linksChecked} links.`,
        );
      }
      output.detail(`Crawled in ${((performance.now() - started) / 1000).toFixed(2)} s.`);
      output.result(
        `${output.colours.out.green(`Checked ${report.pagesCrawled} pages and ${report.linksChecked} links`)}: no broken links, redirects, canonicals or orphans.`,
      );
    });

  program
    .command('catalogue')
    .description('work with content/catalogue.yaml')
    .command('pull')
    .description("write the checkout's current prices into a proposed catalogue for review; content/ is never changed")
    .requiredOption('--from-checkout', "read the prices from the checkout site's WooCommerce Store API")
    .option('--to <file>', 'where the proposed catalogue goes', 'catalogue.proposed.yaml')
    .option('--offline', "read the checkout's products from the cache in .cache/, without the network")
    .action(async (options: { to: string; offline?: boolean }) => {
      const { root } = program.opts<{ root: string }>();
      requireProjectFolder(root);
      const { pullCatalogue } = await import('../checkout/check-checkout.js');
      const pulled = await pullCatalogue(root, process.env, options.to, options.offline === true);
      for (const line of pulled.changes) output.result(line);
      for (const why of pulled.missing) output.warn(`warning: ${why}: its price is left as it is.`);
      output.result(
        pulled.changes.length
          ? `${pulled.changes.length} price(s) differ from the checkout's. Review ${path.relative(process.cwd(), pulled.file)} and copy it over content/catalogue.yaml to take them.`
          : `Every price agrees with the checkout's; ${path.relative(process.cwd(), pulled.file)} is the catalogue as it is.`,
      );
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  // Read before parsing: a flag error is reported before commander has parsed --debug.
  const debug = argv.includes('--debug');
  // What escapes a command (an error event after a server started listening, say) is reported
  // in the same format, and ends the process.
  const fail = (err: unknown) => {
    output.error(err, debug);
    process.exit(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  const program = createProgram();
  throwFlagErrors(program);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    // Help and version are printed already; `storefront` alone prints the help and exits with 1.
    if (isHelpOrVersion(err)) {
      process.exitCode = err.exitCode;
      return;
    }
    output.error(err, debug);
    process.exitCode = 1;
  }
}
