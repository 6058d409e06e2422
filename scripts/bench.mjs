// The build benchmark: `npm run bench [-- --sizes 1000,4000,40000 --runs 3]`.
// Generates corpora with ../shared/bench/make-corpus.mjs (cached under ~/.cache), builds each
// cold (no cache, empty output folder) `runs` times, and prints per size the median wall time,
// pages per second, peak RSS and the median time of each stage. Then, at 4,000 and 40,000 posts
// (`--warm`), warm rebuilds (`runs` of them, the median against the median of as many cold
// builds): the same output folder and cache, one more post changed each time, the result
// compared byte for byte with a cold build.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = flag('--sizes', '1000,4000,40000').split(',').map(Number);
const runs = Number(flag('--runs', '3'));
const warmSizes = flag('--warm', '4000,40000').split(',').map(Number).filter(Boolean);
const corpusGenerator = path.resolve(root, '..', 'shared', 'bench', 'make-corpus.mjs');
const cacheDir = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'storefront-own-bench');

// Output on tmpfs when there is room, as the shared kit does: the disk would be measured otherwise.
const shm = '/dev/shm';
const scratchParent = existsSync(shm) && statfsSync(shm).bavail * statfsSync(shm).bsize > 4 * 2 ** 30 ? shm : tmpdir();
const scratch = mkdtempSync(path.join(scratchParent, 'storefront-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

function corpus(count) {
  const dir = path.join(cacheDir, `n${count}`);
  if (!existsSync(path.join(dir, `post-${String(count).padStart(5, '0')}.md`))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync(process.execPath, [corpusGenerator, '--count', String(count), '--out', dir, '--force'], { stdio: 'ignore' });
  }
  return dir;
}

/** One build as a child process, timed from spawn to exit, with GNU time's peak RSS. */
function build(posts, out, projectRoot = root) {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', 'peak_rss_kb=%M', process.execPath, path.join(root, 'bin', 'storefront.js'), '--root', projectRoot, 'build', '--posts', posts, '--out', out, '--verbose'], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`build failed:\n${result.stderr}`);
  const stages = Object.fromEntries([...result.stderr.matchAll(/^\s+(\w+)\s+([\d.]+) s$/gm)].map((m) => [m[1], Number(m[2])]));
  const pages = Number(/Built (\d+) pages/.exec(result.stdout)?.[1]);
  return { seconds, rssMb: Number(/peak_rss_kb=(\d+)/.exec(result.stderr)[1]) / 1024, stages, pages };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const size of sizes) {
  const posts = corpus(size);
  readFileSync(path.join(posts, 'post-00001.md')); // warm the OS cache, as the kit does
  const results = [];
  for (let run = 0; run < runs; run++) {
    const out = path.join(scratch, `out-${size}-${run}`);
    rmSync(path.join(root, '.cache'), { recursive: true, force: true }); // cold: no cache
    results.push(build(posts, out));
    rmSync(out, { recursive: true, force: true });
  }
  const stageNames = Object.keys(results[0].stages);
  rows.push({
    posts: size,
    pages: results[0].pages,
    median_s: median(results.map((r) => r.seconds)).toFixed(3),
    min_s: Math.min(...results.map((r) => r.seconds)).toFixed(3),
    max_s: Math.max(...results.map((r) => r.seconds)).toFixed(3),
    'pages/s': Math.round(results[0].pages / median(results.map((r) => r.seconds))),
    peak_rss_mb: Math.round(Math.max(...results.map((r) => r.rssMb))),
    ...Object.fromEntries(stageNames.map((name) => [`${name}_s`, median(results.map((r) => r.stages[name] ?? 0)).toFixed(3)])),
  });
  console.log(`${size} posts: ${rows.at(-1).median_s} s`);
}
console.log('');
console.table(rows);

for (const size of warmSizes) {
  // A private copy of the corpus (the cached one is never written to), one post changed.
  const posts = path.join(scratch, `warm-posts-${size}`);
  cpSync(corpus(size), posts, { recursive: true });
  // Medians of `runs` cold builds (the last one leaves its cache and output folder) and of
  // `runs` warm rebuilds, each after one more post changed.
  const colds = [];
  let out;
  for (let run = 0; run < runs; run++) {
    out = path.join(scratch, `warm-out-${size}-${run}`);
    rmSync(path.join(root, '.cache'), { recursive: true, force: true });
    colds.push(build(posts, out).seconds);
  }
  const warms = [];
  for (let run = 0; run < runs; run++) {
    const changed = path.join(posts, `post-${String(42 + run).padStart(5, '0')}.md`);
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\nOne more paragraph, added to measure a warm rebuild.\n`);
    warms.push(build(posts, out).seconds);
  }
  const cold = { seconds: median(colds) };
  const warm = { seconds: median(warms) };
  const reference = path.join(scratch, `cold-reference-${size}`);
  rmSync(path.join(root, '.cache'), { recursive: true, force: true });
  build(posts, reference);
  const identical = spawnSync('diff', ['-r', '-q', out, reference], { encoding: 'utf8' });
  console.log(
    `warm rebuild, ${size} posts, one post changed, median of ${runs}: ${warm.seconds.toFixed(3)} s against ${cold.seconds.toFixed(3)} s cold ` +
      `(${((warm.seconds / cold.seconds) * 100).toFixed(1)} %); output ${identical.status === 0 ? 'byte-identical to a cold build' : `DIFFERS from a cold build:\n${identical.stdout}`}`,
  );
  for (const folder of [posts, reference, ...colds.map((_, run) => path.join(scratch, `warm-out-${size}-${run}`))]) rmSync(folder, { recursive: true, force: true });
}
