import type * as z from 'zod';
import { codes } from '../errors/codes.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { formatField } from '../util/field-path.js';
import type { SourceFile } from '../util/source-file.js';

/** Validates a parsed file against its schema, reporting every issue with its key path and line. */
export function parseWithSchema<S extends z.ZodType>(
  schema: S,
  source: SourceFile,
  problems: ProblemList,
  hint: string,
): z.output<S> | undefined {
  const result = schema.safeParse(source.data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const at = issue.path as PropertyKey[];
    problems.add({
      code: codes.schema,
      file: source.file,
      field: formatField(at),
      line: source.lineOf(at),
      message: describeIssue(issue),
      // A refinement may carry its own hint (plain-text.ts: what to do about an invisible character).
      hint: issue.code === 'custom' && typeof issue.params?.hint === 'string' ? issue.params.hint : hint,
    });
  }
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `A required field is missing (expected ${issue.expected}).`;
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue) {
    return `Unknown kind: ${issue.message}.`;
  }
  return `${issue.message.replace(/^Invalid input: /, 'Invalid value: ')}.`;
}
