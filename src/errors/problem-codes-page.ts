import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Code, codeTitles, docsAnchor } from './catalogue.js';

/** Where the page is, in the repository. */
export const PROBLEM_CODES_PAGE = 'docs/problem-codes.md';

/**
 * docs/problem-codes.md: every code with its title, one row each, the row anchored where
 * `docsAnchor` says (`#sf101`, an `<a id>`: a table has no headings to link to).
 */
export function problemCodesPage(): string {
  const rows = (Object.keys(codeTitles) as Code[]).map((code) => {
    const anchor = docsAnchor(code).split('#')[1];
    return `| <a id="${anchor}"></a>${code} | ${codeTitles[code]} |`;
  });
  return [
    '# Problem codes',
    '',
    'Every problem the commands report starts with a code, such as SF103; a code never changes meaning.',
    '`npm run compile` generates this page from `src/errors/catalogue.ts`: do not edit it by hand.',
    '',
    '| code | what it means |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** Writes the page into the repository at `root` when its text changed; whether it did. */
export function writeProblemCodesPage(root: string): boolean {
  const file = path.join(root, PROBLEM_CODES_PAGE);
  const text = problemCodesPage();
  // A copy of the code without docs/ has no page to keep up to date.
  if (!existsSync(path.dirname(file))) return false;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  // Whole or not at all, as the JSON Schemas are written.
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
  return true;
}
