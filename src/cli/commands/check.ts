import path from 'node:path';
import type { Command } from 'commander';
import { StorefrontError } from '../../errors/storefront-error.js';
import { output } from '../output.js';

function countByHost(urls: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const host = URL.canParse(url) && new URL(url).origin !== 'null' ? new URL(url).origin : url.split(':')[0]!;
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  return counts;
}

/** `storefront check`. */
export function addCheckCommand(program: Command): void {
  program
    .command('check')
    .description(
      'serve the built folder and check every link, redirect, canonical and sitemap URL; fail on any problem',
    )
    .option('--out <dir>', 'folder to check', 'dist')
    .option('--external', 'also fetch external links (the checkout site, CMS images)')
    .option(
      '--checkout',
      'also check that every Buy Now leads to a product that can be bought at the price shown ' +
        '(the checkout setting checkoutVerify makes it the default)',
    )
    .option('--offline', "with --checkout: read the checkout's products from the cache in .cache/, without the network")
    .action(async (options: { out: string; external?: boolean; checkout?: boolean; offline?: boolean }) => {
      const { root } = program.opts<{ root: string }>();
      // Loaded on demand: the crawler is not needed to build (start-up time matters).
      const { checkSite } = await import('../../check/check-site.js');
      const started = performance.now();
      const { loadConfig } = await import('../../config/load-config.js');
      const config = await loadConfig(root, process.env);
      const { contentLinkSources } = await import('../../check/link-sources.js');
      const report = await checkSite({
        outDir: path.resolve(root, options.out),
        // Named as CI systems name files: from the project folder, with forward slashes.
        outName: path.relative(root, path.resolve(root, options.out)).split(path.sep).join('/') || '.',
        external: options.external,
        sources: contentLinkSources(root, config),
      });
      if (options.checkout || config.checkoutVerify) {
        const { checkCheckout } = await import('../../checkout/check-checkout.js');
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
        `${output.colours.out.green(`Checked ${report.pagesCrawled} pages and ${report.linksChecked} links`)}: ` +
          'no broken links, redirects, canonicals or orphans.',
      );
    });
}
