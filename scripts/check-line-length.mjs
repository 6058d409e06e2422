// Checks that no line of code is longer than 120 characters, for `npm test`: Biome formats to that
// width, but it never breaks a string literal, a template literal, a regular expression or a
// comment, so those lines it leaves as long as they were written. Reads the .ts, .tsx, .js and .mjs
// files git tracks; prints each long line as `path:line (N characters)`, then exits 1 if there is
// any. Characters are Unicode code points (an emoji or a letter outside Latin counts once).
// Usage: node scripts/check-line-length.mjs [folder or file ...]   (the whole project by default;
// exits 2 if a folder or file named holds no tracked code, as a misspelt one would)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_CHARACTERS = 120;
const CODE_FILE = /\.(ts|tsx|js|mjs)$/;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const places = process.argv.slice(2);
/** The tracked code files in these folders or files (named from the current folder), as paths from the root. */
const codeFilesIn = (paths) => {
  const fromRoot = paths.map((place) => path.relative(root, path.resolve(place)) || '.');
  const files = execFileSync('git', ['ls-files', '-z', '--', ...fromRoot], { cwd: root, encoding: 'utf8' });
  return files.split('\0').filter((file) => CODE_FILE.test(file));
};

// A misspelt folder holds no file, and would pass: say so instead.
const empty = places.filter((place) => codeFilesIn([place]).length === 0);
if (empty.length > 0) {
  console.error(`No tracked .ts, .tsx, .js or .mjs file in ${empty.join(', ')}.`);
  process.exit(2);
}
const tracked = codeFilesIn(places);

let longLines = 0;
for (const file of tracked) {
  const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
  lines.forEach((line, index) => {
    const characters = [...line].length;
    if (characters <= MAX_CHARACTERS) return;
    longLines++;
    console.log(`${file}:${index + 1} (${characters} characters)`);
  });
}

const where = places.length > 0 ? places.join(', ') : 'the project';
if (longLines > 0) {
  console.log(`${longLines} lines over ${MAX_CHARACTERS} characters in ${where}.`);
  process.exit(1);
}
console.log(`${tracked.length} files in ${where}: no line over ${MAX_CHARACTERS} characters.`);
