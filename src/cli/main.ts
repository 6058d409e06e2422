import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { build } from '../build.js';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { packageRoot } from '../package-root.js';
import { formatError } from './report-error.js';

const version = (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('must be a whole number from 0 to 65535.');
  }
  return port;
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
  verbose?: boolean;
  precompress?: boolean;
}

function countByHost(urls: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const host = URL.canParse(url) && new URL(url).origin !== 'null' ? new URL(url).origin : url.split(':')[0]!;
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  return counts;
}

function formatBytes(bytes: number): string {
  return bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
}

export function createProgram(): Command {
  const program = new Command();
  program
    .name('storefront')
    .description('Builds the storefront from content/ into a static folder any host can serve.')
    .version(version)
    .option('--root <dir>', 'project folder holding content/', process.cwd())
    .option('--debug', 'show stack traces of errors')
    .showHelpAfterError();

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
    .option('--verbose', 'print the time of each stage')
    .action(async (options: BuildFlags) => {
      const { root } = program.opts<{ root: string }>();
      if (options.offline && options.staleOk) {
        throw new StorefrontError({
          code: codes.badFlag,
          message: '--offline and --stale-ok cannot be used together.',
          hint: '--offline never touches the network; --stale-ok tries it first.',
        });
      }
      const summary = await build({
        root,
        outDir: options.out,
        postsDir: options.posts,
        cmsApiUrl: options.cms,
        cmsMode: options.offline ? 'offline' : options.staleOk ? 'stale-ok' : 'online',
        cmsTimeoutMs: options.cmsTimeout,
        cmsRetries: options.cmsRetries,
        precompress: options.precompress,
        log: (line) => console.error(line),
        progress: (stage, done, total) => {
          if (stage === 'fetch') console.error(`Fetching posts: page ${done} of ${total}`);
        },
      });
      for (const warning of summary.warnings) console.warn(`warning: ${warning}`);
      if (options.verbose) {
        for (const stage of summary.stages) console.error(`  ${stage.name.padEnd(10)} ${(stage.ms / 1000).toFixed(3)} s`);
      }
      for (const note of summary.blog.notes) console.error(`note: ${note}`);
      const kinds = Object.entries(summary.pagesByKind)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ');
      const fetch =
        summary.blog.source === 'local'
          ? ''
          : summary.blog.source === 'network'
            ? `, ${summary.blog.posts} posts fetched in ${(summary.blog.fetchMs! / 1000).toFixed(2)} s`
            : `, ${summary.blog.posts} posts from the CMS cache`;
      console.log(
        `Built ${summary.pages} pages (${kinds}) and ${summary.files - summary.pages} other files, ${formatBytes(summary.bytes)}, into ${path.relative(process.cwd(), summary.outDir) || '.'} in ${(summary.totalMs / 1000).toFixed(2)} s${fetch}.`,
      );
    });

  program
    .command('preview')
    .description('serve the built folder on 127.0.0.1 with clean URLs, redirects and the 404 page')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 4173)
    .option('--out <dir>', 'folder to serve', 'dist')
    .action(async (options: { port: number; out: string }) => {
      const { root } = program.opts<{ root: string }>();
      const dir = path.resolve(root, options.out);
      try {
        readFileSync(path.join(dir, 'index.html'));
      } catch {
        throw new StorefrontError({
          code: codes.missingFile,
          file: path.join(options.out, 'index.html'),
          message: 'There is no built site to preview.',
          hint: 'Run `storefront build` first.',
        });
      }
      const { startPreview } = await import('../preview/preview-server.js');
      const preview = await startPreview(dir, options.port);
      console.log(`Serving ${options.out} at ${preview.url} (Ctrl-C to stop)`);
      const stop = () => void preview.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  program
    .command('check')
    .description('serve the built folder and check every link, redirect, canonical and sitemap URL; fail on any problem')
    .option('--out <dir>', 'folder to check', 'dist')
    .option('--external', 'also fetch external links (the checkout site, CMS images)')
    .action(async (options: { out: string; external?: boolean }) => {
      const { root } = program.opts<{ root: string }>();
      // Loaded on demand: the crawler is not needed to build (start-up time matters).
      const { checkSite } = await import('../check/check-site.js');
      const report = await checkSite({ outDir: path.resolve(root, options.out), external: options.external });
      // Fetched links are listed one by one; the others are summed up by host.
      const externalLines = options.external
        ? report.external.map((e) => `  ${e.url} ${e.state ?? ''}${e.status ? ` (HTTP ${e.status})` : ''}`)
        : [...countByHost(report.external.map((e) => e.url))].map(([host, n]) => `  ${host}  ${n} link${n > 1 ? 's' : ''}`);
      if (externalLines.length) {
        console.log(`External links${options.external ? '' : ' (not fetched; --external fetches them)'}:`);
        console.log(externalLines.join('\n'));
      }
      if (report.problems.length) {
        throw new StorefrontError(report.problems, `Checked ${report.pagesCrawled} pages and ${report.linksChecked} links.`);
      }
      console.log(`Checked ${report.pagesCrawled} pages and ${report.linksChecked} links: no broken links, redirects, canonicals or orphans.`);
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const debug = argv.includes('--debug');
    console.error(formatError(err, debug));
    process.exitCode = 1;
  }
}
