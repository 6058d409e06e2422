import { CommanderError } from 'commander';
import { problem } from '../errors/catalogue.js';
import { problemPlace } from '../errors/problem-place.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { escapeForTerminal } from '../util/plain-text.js';
import { plainPalette, type Palette } from './colours.js';
import { flagError } from './flag-errors.js';

/** An error of the operating system, as Node reports it (`EADDRINUSE`, `ENOSPC`...). */
interface SystemError extends Error {
  code: string;
  syscall: string;
  path?: string;
  address?: string;
  port?: number;
}

function isSystemError(err: unknown): err is SystemError {
  const candidate = err as Partial<SystemError> | null;
  return err instanceof Error && typeof candidate?.code === 'string' && typeof candidate.syscall === 'string';
}

/**
 * Any error as problems to print: a StorefrontError as it is, a flag commander rejected, a
 * refusal of the operating system (SF901), and anything else as a bug (SF900).
 */
export function asStorefrontError(err: unknown): StorefrontError {
  if (err instanceof StorefrontError) return err;
  if (err instanceof CommanderError) return flagError(err, 'storefront');
  if (isSystemError(err)) {
    const where =
      err.path ?? (err.address ? `${err.address}${err.port !== undefined ? `:${err.port}` : ''}` : undefined);
    return new StorefrontError(
      problem('systemRefused', { message: err.message, errno: err.code, syscall: err.syscall }, { file: where }),
    );
  }
  const described = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return new StorefrontError(problem('unexpected', { described }, { field: 'internal error' }));
}

/**
 * `SF103  content/services/x.yaml:12 › faq[3].a`, the message, the lines of the file around the
 * place when the problem has them (a YAML syntax error), and the hint, for each problem; the stack
 * trace only with --debug. Colours (the code red, the hint cyan) only if `colours` has them.
 * Every piece of a problem is one line of text that may come from content or from a server (a
 * field name, a WordPress error, a product's name): its controls, line breaks and text-direction
 * characters are shown escaped (`\x1b`, `\r`, `\n`, `\u202e`) before colour is added, so no
 * problem can clear the screen, overwrite a line or print a line of its own.
 */
export function formatError(err: unknown, debug: boolean, colours: Palette = plainPalette): string {
  const error = asStorefrontError(err);
  const safe = (text: string) => escapeForTerminal(text);
  const lines: string[] = [];
  const count = error.problems.length;
  lines.push(count === 1 ? 'Found a problem:' : `Found ${count} problems:`);
  for (const problem of error.problems) {
    const where = safe(problemPlace(problem));
    lines.push('');
    lines.push(`  ${colours.red(safe(problem.code))}${where ? `  ${where}` : ''}`);
    lines.push(`  ${safe(problem.message)}`);
    // The lines of the file around the place, with a caret (escaped again: they are the file's text).
    for (const line of problem.frame ?? []) lines.push(`  ${safe(line)}`);
    if (problem.hint) lines.push(`  ${colours.cyan(`hint: ${safe(problem.hint)}`)}`);
  }
  if (error.footer) lines.push('', safe(error.footer));
  if (debug) lines.push(...debugLines(err));
  return lines.join('\n');
}

/**
 * With --debug: the stack of what was thrown, not of the wrapper made here, then the stack of
 * each error it stands for (its `cause`, as a system refusal wrapped into a problem keeps it),
 * each after `Caused by:`. Their lines are kept, not their controls.
 */
function debugLines(err: unknown): string[] {
  const stack = err instanceof Error ? err.stack : undefined;
  if (!stack) return [];
  const lines = ['', escapeForTerminal(stack, true)];
  const seen = new Set<unknown>([err]);
  for (let cause = (err as Error).cause; cause !== undefined && !seen.has(cause); cause = (cause as Error).cause) {
    seen.add(cause);
    const described = cause instanceof Error ? (cause.stack ?? `${cause.name}: ${cause.message}`) : String(cause);
    lines.push(`Caused by: ${escapeForTerminal(described, true)}`);
    if (!(cause instanceof Error)) break;
  }
  return lines;
}
