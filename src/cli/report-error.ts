import { StorefrontError, type Problem } from '../errors/storefront-error.js';

function place(problem: Problem): string {
  const parts: string[] = [];
  if (problem.file) parts.push(problem.line ? `${problem.file}:${problem.line}` : problem.file);
  if (problem.field) parts.push(problem.field);
  if (problem.url) parts.push(problem.url);
  return parts.join(' › ');
}

/** `SF103  content/services/x.yaml:12 › faq[3].a  message` then the hint, no stack trace. */
export function formatError(err: unknown, debug: boolean): string {
  if (err instanceof StorefrontError) {
    const lines: string[] = [];
    const count = err.problems.length;
    lines.push(count === 1 ? 'Found a problem:' : `Found ${count} problems:`);
    for (const problem of err.problems) {
      lines.push('');
      lines.push(`  ${problem.code}  ${place(problem)}`);
      lines.push(`  ${problem.message}`);
      if (problem.hint) lines.push(`  hint: ${problem.hint}`);
    }
    if (err.footer) lines.push('', err.footer);
    if (debug && err.stack) lines.push('', err.stack);
    return lines.join('\n');
  }
  const error = err as Error;
  return debug
    ? String(error?.stack ?? error)
    : `An unexpected error stopped the command: ${error?.message ?? String(err)}\n(run again with --debug to see the stack trace)`;
}
