// The real site's build, process start to exit, caches warm, against an earlier commit:
//   npm run bench:real-site [-- --against 5dd312e --runs 15]
// Each version builds its own content/ (the real site as it was then) in a folder of its own:
// the earlier commit is taken with `git archive`, compiled there with this project's node_modules.
// One build of each first fills its .cache/; then the runs are interleaved (this version, that
// one, ...) so background load falls on both alike. Prints the median, min and max wall time of
// each and the ratio of the medians. Asserts nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const against = flag('--against', '5dd312e');
const runs = Number(flag('--runs', '15'));

const scratch = mkdtempSync(path.join(tmpdir(), 'storefront-real-site-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** A copy of `rev`'s tree, compiled, sharing this project's node_modules; or this working tree. */
function checkout(rev) {
  const dir = path.join(scratch, rev);
  execFileSync('bash', ['-c', `mkdir -p "${dir}" && git -C "${root}" archive "${rev}" | tar -x -C "${dir}"`]);
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(dir, 'scripts', 'compile.mjs')], { cwd: dir, stdio: 'ignore' });
  return dir;
}

const versions = [
  { name: 'this tree', dir: root },
  { name: against, dir: checkout(against) },
];

function build(dir) {
  const started = process.hrtime.bigint();
  const result = spawnSync(
    process.execPath,
    [path.join(dir, 'bin', 'storefront.js'), 'build', '--out', path.join(scratch, `out-${path.basename(dir)}`)],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`the build in ${dir} failed:\n${result.stderr}`);
  return seconds;
}

for (const version of versions) build(version.dir);
const times = new Map(versions.map((v) => [v.name, []]));
for (let i = 0; i < runs; i++)
  for (const version of i % 2 ? [...versions].reverse() : versions) times.get(version.name).push(build(version.dir));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
console.log(`The real site, ${runs} warm builds each, interleaved; wall time from spawn to exit:`);
console.log('version       median_s   min_s   max_s');
for (const [name, values] of times) {
  console.log(
    `${name.padEnd(12)}  ${median(values).toFixed(3).padStart(8)}  ${Math.min(...values)
      .toFixed(3)
      .padStart(6)}  ${Math.max(...values)
      .toFixed(3)
      .padStart(6)}`,
  );
}
console.log(
  `ratio: ${(median(times.get('this tree')) / median(times.get(against))).toFixed(2)} (this tree / ${against})`,
);
