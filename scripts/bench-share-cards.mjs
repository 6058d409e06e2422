// What the share cards cost a build (issue 27: at most +0.3 s cold, nothing warm), for a developer to read:
//   node scripts/bench-share-cards.mjs [--runs N] [--generator DIR]...
// On a copy of the real site (content/ of each generator: this checkout, or a worktree of an older
// commit with its own `npm run compile`), N rounds of cold builds (no .cache/images or .cache/cms):
// one drawing every card, one with the cards kept in .cache/share/; then N warm builds. Every
// build runs `storefront build --quiet`, timed from spawn to exit (wall) and in CPU time (user +
// system, from GNU time). The rounds interleave the generators, so a machine slowing down slows
// them all. Prints medians, asserts nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runs = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 11);
const generators = args.flatMap((arg, i) => (args[i - 1] === '--generator' ? [path.resolve(arg)] : []));
if (generators.length === 0) generators.push(here);
const work = mkdtempSync(path.join(tmpdir(), 'bench-share-cards-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const sites = generators.map((generator, i) => {
  const site = path.join(work, `site-${i}`);
  cpSync(path.join(generator, 'content'), path.join(site, 'content'), { recursive: true });
  return { generator, site, times: { drawn: [], kept: [], warm: [] } };
});
const timing = path.join(work, 'time.txt');

/** One build, timed; `forget` lists the .cache folders removed first. */
function build({ generator, site }, forget) {
  for (const dir of forget) rmSync(path.join(site, '.cache', dir), { recursive: true, force: true });
  execFileSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %U %S',
      '-o',
      timing,
      process.execPath,
      path.join(generator, 'bin', 'storefront.js'),
      '--root',
      site,
      'build',
      '--quiet',
    ],
    { stdio: 'ignore' },
  );
  const [wall, user, system] = readFileSync(timing, 'utf8').trim().split(/\s+/).map(Number);
  return { wall: wall * 1000, cpu: (user + system) * 1000 };
}

const cold = ['images', 'cms'];
for (let round = 0; round < runs; round++) {
  for (const entry of sites) {
    entry.times.drawn.push(build(entry, [...cold, 'share']));
    entry.times.kept.push(build(entry, cold));
  }
}
for (let round = 0; round < runs; round++) for (const entry of sites) entry.times.warm.push(build(entry, []));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (list, key) => Math.round(median(list.map((t) => t[key])));
console.log(`${runs} rounds, medians in ms (wall / CPU):`);
for (const { generator, times } of sites) {
  console.log(`${path.relative(process.cwd(), generator) || '.'}`);
  console.log(
    `  cold, cards drawn   ${ms(times.drawn, 'wall')} / ${ms(times.drawn, 'cpu')}   (wall ${times.drawn
      .map((t) => Math.round(t.wall))
      .sort((a, b) => a - b)
      .join(' ')})`,
  );
  console.log(
    `  cold, cards kept    ${ms(times.kept, 'wall')} / ${ms(times.kept, 'cpu')}   (wall ${times.kept
      .map((t) => Math.round(t.wall))
      .sort((a, b) => a - b)
      .join(' ')})`,
  );
  console.log(
    `  drawing the cards   +${ms(times.drawn, 'wall') - ms(times.kept, 'wall')} / ` +
      `+${ms(times.drawn, 'cpu') - ms(times.kept, 'cpu')}`,
  );
  console.log(`  warm                ${ms(times.warm, 'wall')} / ${ms(times.warm, 'cpu')}`);
}
