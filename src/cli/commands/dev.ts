import type { Command } from 'commander';
import { hostOption, parsePort, requireProjectFolder, stopOnSignal } from '../command-helpers.js';

/** `storefront dev`. */
export function addDevCommand(program: Command): void {
  program
    .command('dev')
    .description(
      'build, serve on 127.0.0.1 (or --host), and rebuild and update open pages on every change ' +
        'to content/ and templates/',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 4321)
    .addOption(hostOption())
    .option('--open', 'open the site in the system browser')
    .action(async (options: { port: number; host: string; open?: boolean }) => {
      const { root, debug } = program.opts<{ root: string; debug?: boolean }>();
      requireProjectFolder(root);
      // Loaded on demand: the watcher, the worker and the dev server are only needed here.
      const { runDev } = await import('../../dev/dev-command.js');
      const dev = await runDev({ root, port: options.port, host: options.host, open: options.open === true, debug });
      stopOnSignal(() => dev.stop());
    });
}
