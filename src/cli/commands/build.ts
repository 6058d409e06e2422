import { Option, type Command } from 'commander';
import { TARGETS, type Target } from '../../config/deploy-target.js';
import { problem } from '../../errors/catalogue.js';
import { StorefrontError } from '../../errors/storefront-error.js';
import { headline, stageLines, summaryDetail } from '../build-report.js';
import { parseWhole, requireProjectFolder } from '../command-helpers.js';
import { output } from '../output.js';

interface BuildFlags {
  out: string;
  posts?: string;
  cms?: string;
  offline?: boolean;
  staleOk?: boolean;
  cmsFull?: boolean;
  cmsTimeout: number;
  cmsRetries: number;
  precompress?: boolean;
  allowPlaceholders?: boolean;
  drafts?: boolean;
  base?: string;
  target?: Target;
}

/** `storefront build`. */
export function addBuildCommand(program: Command): void {
  program
    .command('build')
    .description('build the site into the output folder (swapped in only when the whole build succeeds)')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--posts <dir>', 'read the local blog from this folder instead of content/blog')
    .option('--cms <url>', 'take the blog from this WordPress REST API root (overrides CMS_API_URL)')
    .option('--offline', 'build the CMS blog from the cache in .cache/, without the network')
    .option('--stale-ok', 'if the CMS cannot be reached, build from the cache, with a warning')
    .option('--cms-full', 'fetch every post from the CMS, not only what changed since the copy in .cache/cms/')
    .option('--cms-timeout <ms>', 'time limit of one CMS request', parseWhole, 15000)
    .option('--cms-retries <n>', 'retries of a failed CMS request', parseWhole, 3)
    .option('--precompress', 'write .br and .gz copies of every page and text asset (for nginx, preview, a bucket)')
    .option(
      '--base <path>',
      'serve the site from this folder of its origin, e.g. /shop/ for a GitHub Pages project site ' +
        '(overrides BASE_PATH)',
    )
    .addOption(
      new Option(
        '--target <host>',
        'the host to write its own files for ' +
          '(default: detected from NETLIFY or CF_PAGES, else static; overrides DEPLOY_TARGET)',
      ).choices(TARGETS),
    )
    .option(
      '--drafts',
      'also build drafts and posts dated after today, marked and noindex (to look at them before they are published)',
    )
    .option(
      '--allow-placeholders',
      'let example values (example.com, drama numbers, the example trader) through for a real SITE_URL: ' +
        'a staging build',
    )
    .action(async (options: BuildFlags) => {
      const { root } = program.opts<{ root: string }>();
      requireProjectFolder(root);
      if (options.offline && options.staleOk) {
        throw new StorefrontError(problem('offlineWithStaleOk', {}));
      }
      if (options.offline && options.cmsFull) throw new StorefrontError(problem('offlineWithFullFetch', {}));
      output.status('Reading the settings and the content…');
      // Loaded on demand, as each command's code: `--help` and `preview` need none of the build's.
      const { build } = await import('../../build.js');
      const summary = await build({
        root,
        outDir: options.out,
        postsDir: options.posts,
        cmsApiUrl: options.cms,
        cmsMode: options.offline ? 'offline' : options.staleOk ? 'stale-ok' : 'online',
        cmsFullFetch: options.cmsFull,
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
}
