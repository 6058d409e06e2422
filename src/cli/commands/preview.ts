import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { problem } from '../../errors/catalogue.js';
import { StorefrontError } from '../../errors/storefront-error.js';
import { EXPOSED_NOTE, reachableFromNetwork, servingLines } from '../../preview/listen-address.js';
import { hostOption, parsePort, stopOnSignal } from '../command-helpers.js';
import { output } from '../output.js';

/** `storefront preview`. */
export function addPreviewCommand(program: Command): void {
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
      const { servedBasePath, startPreview } = await import('../../preview/preview-server.js');
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
}
