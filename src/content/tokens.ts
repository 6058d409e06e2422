import { codes } from '../errors/codes.js';
import type { ProblemList } from '../errors/storefront-error.js';
import type { SourceFile } from './source-file.js';
import { formatField } from './field-path.js';

const TOKEN = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;

/**
 * Replaces `{{name}}` tokens in every string of a parsed file with the claim or setting of that
 * name, so that a fact stated once in site.yaml or the settings reads the same everywhere.
 * Unknown tokens are reported with their key path.
 */
export function expandTokens(
  source: SourceFile,
  facts: Readonly<Record<string, string>>,
  problems: ProblemList,
): void {
  const visit = (value: unknown, at: PropertyKey[]): unknown => {
    if (typeof value === 'string') return expandString(value, at);
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...at, i]));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = visit(item, [...at, key]);
      return out;
    }
    return value;
  };
  const expandString = (text: string, at: PropertyKey[]): string =>
    text.replace(TOKEN, (whole, name: string) => {
      const fact = facts[name];
      if (fact !== undefined) return fact;
      problems.add({
        code: codes.unknownToken,
        file: source.file,
        field: formatField(at),
        line: source.lineOf(at),
        message: `The token ${whole} names no claim or setting.`,
        hint: `Use one of: ${Object.keys(facts).sort().join(', ')}.`,
      });
      return whole;
    });
  source.data = visit(source.data, []);
  if (source.body !== undefined) source.body = expandString(source.body, ['(body)']);
}
