/**
 * --verbose and --quiet belong to the program, not to one command, so every command (build,
 * preview, check, dev) has them, before or after its name: `storefront build --quiet` and
 * `storefront --quiet build` are the same. They are applied to `output` before any action runs,
 * and so is the project's `.env` file.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { problem } from '../errors/catalogue.js';
import { PROBLEM_FORMATS, type ProblemFormat } from '../errors/problem-formats.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { output } from './output.js';

export interface GlobalFlags {
  root: string;
  format?: ProblemFormat;
  debug?: boolean;
  verbose?: boolean;
  quiet?: boolean;
}

export function addGlobalOptions(program: Command): void {
  program
    .option('--verbose', 'print more: the time and work of each stage, every request served')
    .addOption(new Option('--quiet', 'print errors only').conflicts('verbose'))
    .addOption(
      new Option(
        '--format <format>',
        'also print the problems for CI on stdout: GitHub annotations (the default on GitHub Actions), ' +
          'JUnit XML, SARIF or JSON (then the other lines go to stderr)',
      ).choices(PROBLEM_FORMATS),
    )
    // `storefront build --help` lists them too.
    .configureHelp({ showGlobalOptions: true })
    .hook('preAction', (_program, command) =>
      // The version main.ts gave the program (package.json is read once).
      applyGlobalFlags(program.opts<GlobalFlags>(), command, program.version() ?? ''),
    );
}

function applyGlobalFlags(flags: GlobalFlags, command: Command, version: string): void {
  const names = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  output.configure({
    verbosity: flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal',
    // GitHub Actions sets GITHUB_ACTIONS=true: its log then shows each problem at its line.
    format: flags.format ?? (process.env.GITHUB_ACTIONS === 'true' ? 'github' : 'text'),
    run: { tool: names.join(' '), version },
  });
  // Otherwise a mistyped --root reads as every content file missing.
  if (!existsSync(flags.root)) {
    throw new StorefrontError(problem('rootMissing', { root: flags.root }, { field: '--root' }));
  }
  // Settings kept out of the repository (SITE_URL, CMS_APP_PASSWORD…), as hosts and CI set them;
  // a variable set in the real environment wins over the file.
  const envFile = path.join(flags.root, '.env');
  if (statSync(envFile, { throwIfNoEntry: false })?.isFile()) process.loadEnvFile(envFile);
}
