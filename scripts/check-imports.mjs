// Checks the shape of the generator's imports, for `npm test`: no import cycles among the files of
// src/ and templates/, and no stage importing a later one (the pipeline's order, below). Type-only
// imports count: they tie one stage to another all the same. Prints each fault, then the counts;
// exits 1 on any fault. Usage: node scripts/check-imports.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Each stage of the build in the order src/build.ts runs them; a file may import its own stage and
 * earlier ones. Folders not listed (errors, util) are used by all and import no stage. src/build/
 * (the build's stage files, which import every folder before them) sits with src/build.ts. What
 * runs beside or after a build (the CLI, dev, preview, check) comes last.
 */
const STAGES = [
  ['src/errors', 'src/util', 'src/package-root.ts'],
  // One module per host: before config, whose settings check a target's name; so a host imports no
  // stage, and output/host-files.ts makes the files a host names.
  ['src/hosts'],
  ['src/config'],
  ['src/content', 'src/catalogue'],
  ['src/cms'],
  ['src/routes'],
  ['src/images'],
  ['src/render', 'templates'],
  ['src/output'],
  ['src/build.ts', 'src/build'],
  ['src/preview', 'src/check', 'src/checkout', 'src/browser', 'src/dev', 'src/cli'],
];

const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (/\.tsx?$/.test(entry.name)) files.push(full);
  }
};
for (const dir of ['src', 'templates']) walk(path.join(root, dir));

const stageOf = (file) => {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const index = STAGES.findIndex((stage) => stage.some((place) => rel === place || rel.startsWith(`${place}/`)));
  if (index === -1) throw new Error(`${rel} is in no stage of scripts/check-imports.mjs: add its folder there`);
  return index;
};
const resolveImport = (from, spec) => {
  const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
  return ['.ts', '.tsx'].map((ext) => base + ext).find((candidate) => existsSync(candidate));
};
const edges = new Map();
const faults = [];
for (const file of files) {
  const source = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const targets = new Set();
  for (const match of source.matchAll(
    /(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
  )) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (!target) continue;
    targets.add(target);
    if (stageOf(target) > stageOf(file))
      faults.push(`later stage: ${path.relative(root, file)} imports ${path.relative(root, target)}`);
  }
  edges.set(file, targets);
}

// Tarjan's strongly connected components: each one of more than one file is a cycle.
let next = 0;
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
let cycles = 0;
const visit = (file) => {
  index.set(file, next);
  low.set(file, next++);
  stack.push(file);
  onStack.add(file);
  for (const target of edges.get(file)) {
    if (!index.has(target)) {
      visit(target);
      low.set(file, Math.min(low.get(file), low.get(target)));
    } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(path.relative(root, member));
  } while (member !== file);
  if (component.length > 1 || edges.get(file).has(file)) {
    cycles += 1;
    faults.push(`cycle: ${component.sort().join(', ')}`);
  }
};
for (const file of files) if (!index.has(file)) visit(file);

for (const fault of faults) console.log(fault);
console.log(`imports: ${files.length} files, ${cycles} cycles, ${faults.length - cycles} imports of a later stage`);
process.exitCode = faults.length > 0 ? 1 : 0;
