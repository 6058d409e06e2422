import path from 'node:path';
import type { Command } from 'commander';
import { requireProjectFolder } from '../command-helpers.js';
import { output } from '../output.js';

/** `storefront catalogue`. */
export function addCatalogueCommand(program: Command): void {
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
      const { pullCatalogue } = await import('../../checkout/check-checkout.js');
      const pulled = await pullCatalogue(root, process.env, options.to, options.offline === true);
      for (const line of pulled.changes) output.result(line);
      for (const why of pulled.missing) output.warn(`warning: ${why}: its price is left as it is.`);
      const proposed = path.relative(process.cwd(), pulled.file);
      output.result(
        pulled.changes.length
          ? `${pulled.changes.length} price(s) differ from the checkout's. ` +
              `Review ${proposed} and copy it over content/catalogue.yaml to take them.`
          : `Every price agrees with the checkout's; ${proposed} is the catalogue as it is.`,
      );
    });
}
