import type { Problem } from './storefront-error.js';

/**
 * Where a problem is: `content/catalogue.yaml:95 › platforms[1].price`, `content/site.yaml:12:5`
 * (line and column), or a URL. The terminal and dev's browser overlay both show it; this module
 * imports nothing so the overlay's script can bundle it.
 */
export function problemPlace(problem: Problem): string {
  const parts: string[] = [];
  if (problem.file)
    parts.push(
      problem.line ? `${problem.file}:${problem.line}${problem.column ? `:${problem.column}` : ''}` : problem.file,
    );
  if (problem.field) parts.push(problem.field);
  if (problem.url) parts.push(problem.url);
  return parts.join(' › ');
}
