/**
 * The docs fit on a screen and stand alone (issue 28): a short README, no table cell too long to
 * read, no path outside the repository, every relative link and anchor pointing somewhere, and a
 * word budget for README.md and docs/ (generated pages aside). Reads files only: no build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const MAX_README_LINES = 150;
const MAX_CELL_CHARS = 300;
const MAX_WORDS = 14_700;
/**
 * Generated reference pages: looked up, not read, so outside the word budget; their cells are
 * held short by their own test (test/unit/problem-codes.test.ts).
 */
const GENERATED = new Set(['docs/problem-codes.md']);

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
}

const docs = ['README.md', ...markdownFiles('docs')];
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

/** The text with fenced code blocks blanked out (line numbers kept). */
function withoutFences(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

function anchors(rel: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(read(rel))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('docs', () => {
  it(`README.md has at most ${MAX_README_LINES} lines`, () => {
    const lines = read('README.md').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it(`no Markdown table cell is over ${MAX_CELL_CHARS} characters`, () => {
    const long: string[] = [];
    for (const rel of docs) {
      withoutFences(read(rel)).forEach((line, i) => {
        if (!/^\s*\|/.test(line)) return;
        const cells = line
          .trim()
          .replace(/^\|/, '')
          .replace(/\|$/, '')
          .split(/(?<!\\)\|/);
        for (const cell of cells) {
          if (cell.trim().length > MAX_CELL_CHARS)
            long.push(`${rel}:${i + 1} (${cell.trim().length} characters): ${cell.trim().slice(0, 60)}…`);
        }
      });
    }
    expect(long).toEqual([]);
  });

  it('no file names a path outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((file) => file && file !== 'package-lock.json' && existsSync(path.join(root, file)));
    const outside = [
      /\.\.\/shared\b/,
      /(^|[\s'"`(=:])\/(work|root)\//,
      /\/home\/[a-z_][\w.-]*\//,
      /\/Users\/[\w.-]+\//,
      /[A-Za-z]:\\Users\\/,
    ];
    const found: string[] = [];
    for (const file of files) {
      if (!statSync(path.join(root, file)).isFile()) continue;
      const bytes = readFileSync(path.join(root, file));
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((line, i) => {
          if (outside.some((pattern) => pattern.test(line)))
            found.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('every relative link points at a file, and every #anchor at a heading', () => {
    const broken: string[] = [];
    for (const rel of docs) {
      withoutFences(read(rel)).forEach((line, i) => {
        const text = line.replace(/`[^`]*`/g, '``');
        for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
          const target = match[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
          const [file = '', anchor] = target.split('#', 2);
          const resolved =
            file === '' ? rel : path.posix.normalize(path.posix.join(path.posix.dirname(rel), decodeURI(file)));
          const where = `${rel}:${i + 1} → ${target}`;
          if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) {
            broken.push(`${where} (no such file)`);
          } else if (anchor !== undefined && anchor !== '') {
            if (!resolved.endsWith('.md')) broken.push(`${where} (an anchor in a file that is not Markdown)`);
            else if (!anchors(resolved).has(decodeURIComponent(anchor).toLowerCase()))
              broken.push(`${where} (no such heading)`);
          }
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it(`README.md and docs/ hold at most ${MAX_WORDS} words, generated pages aside`, () => {
    const counts = docs
      .filter((rel) => !GENERATED.has(rel))
      .map((rel) => [rel, read(rel).split(/\s+/).filter(Boolean).length] as const);
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    expect(total, counts.map(([rel, n]) => `${rel} ${n}`).join(', ')).toBeLessThanOrEqual(MAX_WORDS);
  });
});
