/**
 * Commander's own errors (unknown option or command, a missing or invalid value, conflicting
 * flags) as problems in the CLI's one format, `SF170` with the flag and a hint, instead of
 * commander's message followed by the whole help.
 */
import { CommanderError, type Command } from 'commander';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';

/** The command as typed: `storefront build`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/** A rejected command line as a StorefrontError; `usage` is the command whose help helps. */
export function flagError(err: CommanderError, usage: string): StorefrontError {
  const message = err.message.replace(/^error: /, '');
  // The flag or the word concerned is the first quoted thing: '--port <port>', 'nope'.
  const subject = /'([^']+)'/.exec(message)?.[1]?.split(' ')[0];
  const unknownCommand = err.code === 'commander.unknownCommand';
  return new StorefrontError({
    code: codes.badFlag,
    field: subject,
    message: /[.?)]$/.test(message) ? message : `${message}.`,
    hint: `\`${usage} --help\` lists the ${unknownCommand ? 'commands' : 'options'}.`,
  });
}

/** Help and version end the run with commander's exit code; they are not problems. */
export function isHelpOrVersion(err: unknown): err is CommanderError {
  return err instanceof CommanderError && (err.exitCode === 0 || err.code === 'commander.help');
}

/**
 * Every command of the tree, including ones added later with addCommand (which, unlike
 * .command(), inherits no settings), throws its errors instead of printing them and exiting.
 */
export function throwFlagErrors(program: Command): void {
  const visit = (command: Command) => {
    command
      .configureOutput({ outputError: () => {} })
      .exitOverride((err) => {
        throw isHelpOrVersion(err) ? err : flagError(err, commandPath(command));
      });
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
