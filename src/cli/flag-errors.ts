/**
 * Commander's own errors (unknown option or command, a missing or invalid value, conflicting
 * flags) as problems in the CLI's one format, `SF170` with the flag and a hint, instead of
 * commander's message followed by the whole help.
 */
import { CommanderError, type Command } from 'commander';
import { problem } from '../errors/catalogue.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { nearest } from '../util/nearest.js';

/** The command as typed: `storefront build`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * A rejected command line as a StorefrontError; `usage` is the command whose help helps.
 * Commander's guess, on a line of its own in its message (`\n(Did you mean build?)`), joins the
 * message's line, as every "Did you mean" of the CLI does; a value that is none of an option's
 * choices gets the nearest choice the same way.
 */
export function flagError(err: CommanderError, usage: string): StorefrontError {
  const [said = '', ...more] = err.message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // The flag or the word concerned is the first quoted thing: '--port <port>', 'nope'.
  const subject = /'([^']+)'/.exec(said)?.[1]?.split(' ')[0];
  const commands = err.code === 'commander.unknownCommand';
  let guess = /^\(Did you mean (.+)\?\)$/.exec(more.join(' '))?.[1];
  // `--target netlfy`: "argument 'netlfy' is invalid. Allowed choices are netlify, cloudflare, …".
  const choice = /argument '([^']*)' is invalid\. Allowed choices are (.+?)\.?$/.exec(said);
  if (choice) guess = nearest(choice[1]!, choice[2]!.split(', '));
  const typed = choice?.[1] ?? /'([^']+)'/.exec(said)?.[1];
  return new StorefrontError(
    problem('flagRejected', { said, more, guess, typed, usage, commands }, { field: subject }),
    undefined,
    { cause: err },
  );
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
    command.configureOutput({ outputError: () => {} }).exitOverride((err) => {
      throw isHelpOrVersion(err) ? err : flagError(err, commandPath(command));
    });
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
