/**
 * docs/problem-codes.md is generated from the catalogue (`npm run compile`): it must be what the
 * catalogue makes now, with a row and an anchor for every code, where docsAnchor points.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Code, codeTitles, docsAnchor } from '../../src/errors/catalogue.js';
import { PROBLEM_CODES_PAGE, problemCodesPage } from '../../src/errors/problem-codes-page.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('docs/problem-codes.md', () => {
  it('is what the catalogue generates (run `npm run compile` after changing src/errors/catalogue.ts)', () => {
    expect(readFileSync(path.join(root, PROBLEM_CODES_PAGE), 'utf8')).toBe(problemCodesPage());
  });

  it("has a row for every code, anchored where docsAnchor points, with the code's title", () => {
    const page = problemCodesPage();
    for (const code of Object.keys(codeTitles) as Code[]) {
      const [file, anchor] = docsAnchor(code).split('#');
      expect(file).toBe(PROBLEM_CODES_PAGE);
      expect(page).toContain(`| <a id="${anchor}"></a>${code} | ${codeTitles[code]} |\n`);
    }
  });

  it('keeps every title to one short line (a table cell is read at a glance)', () => {
    const long = Object.entries(codeTitles).filter(([, title]) => title.length > 80);
    expect(long).toEqual([]);
  });
});
