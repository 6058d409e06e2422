import { Command } from 'commander';
import { packageVersion } from '../package-root.js';
import { addBuildCommand } from './commands/build.js';
import { addCatalogueCommand } from './commands/catalogue.js';
import { addCheckCommand } from './commands/check.js';
import { addDevCommand } from './commands/dev.js';
import { addPreviewCommand } from './commands/preview.js';
import { isHelpOrVersion, throwFlagErrors } from './flag-errors.js';
import { addGlobalOptions } from './global-options.js';
import { output } from './output.js';

export function createProgram(): Command {
  const program = new Command();
  program
    .name('storefront')
    .description('Builds the storefront from content/ into a static folder any host can serve.')
    .version(packageVersion())
    .option('--root <dir>', 'project folder holding content/', process.cwd())
    .option('--debug', 'show stack traces of errors');
  addGlobalOptions(program);
  addBuildCommand(program);
  addPreviewCommand(program);
  addDevCommand(program);
  addCheckCommand(program);
  addCatalogueCommand(program);
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
    // A run that passed writes its report too (--format): CI reads "no problems" from it.
    output.report([]);
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
