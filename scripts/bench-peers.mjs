// The benchmark against Eleventy and Hugo: `npm run bench:peers [-- --count N --runs R --warm]`.
// Times builds of one generated Markdown blog (bench/make-corpus.mjs, N posts) by Eleventy, by
// Hugo and by the storefront (`node bin/storefront.js --root PROJECT build --posts CORPUS --out OUT`),
// and prints for each tool the median, min and max wall time, the median CPU time (user + system)
// and peak RSS, the output's files and bytes, pages/s, and its ratio to Eleventy's median.
// - Cold by default, as a CI runner or a host's first build: every run starts from nothing, each
//   tool's caches deleted, and the storefront in a new project folder (a copy of content/, no
//   .cache/). --warm times builds whose caches an untimed first build has filled instead.
// - Eleventy is installed with `npm ci` from bench/peers/eleventy/package-lock.json into
//   .cache/bench/ (git ignores .cache/), once per version of its files; the corpus is generated
//   there too, once per N and version of the generator. Later runs reuse both.
// - Hugo is Debian's `hugo` package: installed with apt-get when it is missing and this runs as
//   root, else skipped with a message (its ratio shows n/a). bench/peers/hugo/ is its site.
// - Runs are interleaved (run 1 times every tool once, then run 2...), the first tool rotating, so
//   warm-up and background load fall on all alike. Each build is cold: a fresh output folder, and
//   caches as above. The time is the whole process, spawn to exit (GNU time gives CPU and RSS).
// - A build is valid when it exits 0 within 30 min and wrote N post pages and the list page:
//   blog/{slug}/index.html and blog/index.html for the peers, blog/{slug}.html and blog.html for
//   the storefront (it writes clean-URL files).
// - Outputs go to /dev/shm when it has 4 GiB free (so the disk is not what is measured), else the
//   OS temp folder, and are removed on exit.
// Exit status: 0 when every result is valid (a skipped Hugo included), 1 when one is invalid,
// 2 for bad flags, 3 when setup failed (compile, npm ci, corpus).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kit = path.join(root, 'bench');
const cache = path.join(root, '.cache', 'bench');
const TIMEOUT_MS = 30 * 60 * 1000; // one build; over it the result is invalid

// --- Flags -------------------------------------------------------------------------------------
function usage(message) {
  if (message) console.error(`bench-peers: ${message}`);
  console.error(
    'usage: npm run bench:peers [-- --count N --runs R --warm]\n' +
      '  --count N  posts in the corpus (default 4000)\n' +
      '  --runs R   builds per tool (default 3); the median is reported\n' +
      '  --warm     time builds with their caches filled (cold by default)',
  );
  process.exit(message ? 2 : 0);
}
const options = { count: '4000', runs: '3' };
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '-h' || arg === '--help') usage();
  if (arg === '--warm') {
    options.warm = true;
    continue;
  }
  const [name, inline] = arg.split('=', 2);
  if (name !== '--count' && name !== '--runs') usage(`unknown argument: ${arg}`);
  const value = inline ?? process.argv[++i];
  if (!/^[1-9][0-9]*$/.test(value ?? '')) usage(`${name} wants a positive integer, got: ${value}`);
  options[name.slice(2)] = value;
}
const count = Number(options.count);
const runs = Number(options.runs);
const warm = options.warm === true;

// --- Helpers -----------------------------------------------------------------------------------
const note = (line) => console.error(line);
function setupFailed(message) {
  note(`bench-peers: ${message}`);
  process.exit(3);
}
/** Runs a command to completion, output captured; never throws. */
const run = (command, args, extra = {}) =>
  spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, stdio: ['ignore', 'pipe', 'pipe'], ...extra });
const tail = (text, lines = 15) =>
  text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => `    | ${line}`)
    .join('\n');

/** A short hash of files' names and contents, so that edited kit files never reuse a stale install or corpus. */
function hashOf(base, files) {
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(base, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 12);
}
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// --- Scratch folder for outputs: tmpfs when there is room ----------------------------------------
const shmFree = (() => {
  try {
    const fs = statfsSync('/dev/shm');
    return fs.bavail * fs.bsize;
  } catch {
    return 0;
  }
})();
const scratchParent = shmFree >= 4 * 2 ** 30 ? '/dev/shm' : tmpdir();
const scratch = mkdtempSync(path.join(scratchParent, 'storefront-bench-peers-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

// --- Setup: compile, peers, corpus -------------------------------------------------------------
mkdirSync(cache, { recursive: true });

// The storefront's CLI runs from lib/: compile it from the current sources (what `npm run compile` does).
note('compiling the storefront (npm run compile) ...');
{
  const result = run(process.execPath, [path.join(root, 'scripts', 'compile.mjs')], { cwd: root });
  if (result.status !== 0) setupFailed(`npm run compile failed:\n${tail(result.stdout + result.stderr, 30)}`);
}

// Eleventy: a copy of bench/peers/eleventy/ and bench/site.json in .cache/bench/, installed with `npm ci`.
function installEleventy() {
  const source = path.join(kit, 'peers', 'eleventy');
  const hash = createHash('sha256')
    .update(hashOf(source, filesUnder(source)))
    .update(hashOf(kit, ['site.json']))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(cache, `eleventy-${hash}`);
  if (!existsSync(path.join(dir, '.installed'))) {
    note(`installing Eleventy into ${path.relative(root, dir)} (npm ci, first run) ...`);
    rmSync(dir, { recursive: true, force: true });
    cpSync(source, dir, { recursive: true });
    cpSync(path.join(kit, 'site.json'), path.join(dir, 'site.json'));
    const result = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    if (result.status !== 0)
      setupFailed(`npm ci failed for Eleventy in ${dir}:\n${tail(result.stdout + result.stderr, 30)}`);
    writeFileSync(path.join(dir, '.installed'), '');
  }
  return dir;
}
const eleventyDir = installEleventy();
const eleventyVersion = JSON.parse(
  readFileSync(path.join(eleventyDir, 'node_modules', '@11ty', 'eleventy', 'package.json'), 'utf8'),
).version;

// Hugo: Debian's package, as npm is the only other registry reachable here. Returns its version, or
// undefined (after saying why) when it is not there and cannot be installed.
function findHugo() {
  const version = () => /v(\d+\.\d+\.\d+)/.exec(run('hugo', ['version']).stdout ?? '')?.[1];
  if (version()) return version();
  const why = "Hugo is not installed: install Debian's `hugo` package (apt-get install hugo) to time it";
  if (process.getuid?.() !== 0 || run('apt-get', ['--version']).status !== 0) {
    note(`${why}. Hugo is skipped; its ratio shows n/a.`);
    return undefined;
  }
  note("installing Debian's hugo package (apt-get, first run) ...");
  const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  const update = run('apt-get', ['update', '-qq', '-o', 'DPkg::Lock::Timeout=600'], apt);
  const install =
    update.status === 0
      ? run('apt-get', ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=600', 'hugo'], apt)
      : update;
  if (install.status !== 0 || !version()) {
    note(`${why}; apt-get failed:\n${tail(install.stdout + install.stderr)}\nHugo is skipped; its ratio shows n/a.`);
    return undefined;
  }
  return version();
}
const hugoVersion = findHugo();

// The corpus, keyed by N and the generator's hash; `.ready` sits beside it (Hugo would take a
// stray file among the posts for a page resource).
const corpus = path.join(cache, 'corpus', `n${count}-${hashOf(kit, ['make-corpus.mjs'])}`);
if (!existsSync(`${corpus}.ready`)) {
  note(`generating ${count} posts into ${path.relative(root, corpus)} ...`);
  rmSync(corpus, { recursive: true, force: true });
  const result = run(process.execPath, [path.join(kit, 'make-corpus.mjs'), '--count', String(count), '--out', corpus]);
  if (result.status !== 0) setupFailed(`make-corpus failed:\n${tail(result.stderr)}`);
  writeFileSync(`${corpus}.ready`, '');
}
// Read every post once now, so that no tool pays alone for reading them from disk.
for (const file of readdirSync(corpus)) readFileSync(path.join(corpus, file));

// Hugo's site is copied into the scratch folder (Hugo writes a lock file and resources/ into its
// source folder), with the site data and the corpus mounted at content/blog, read in place.
const hugoSite = path.join(scratch, 'hugo-site');
if (hugoVersion) {
  if (corpus.includes("'")) setupFailed(`the corpus path may not contain a single quote: ${corpus}`);
  cpSync(path.join(kit, 'peers', 'hugo'), hugoSite, { recursive: true });
  mkdirSync(path.join(hugoSite, 'data'));
  cpSync(path.join(kit, 'site.json'), path.join(hugoSite, 'data', 'site.json'));
  appendFileSync(
    path.join(hugoSite, 'hugo.toml'),
    '\n[[module.mounts]]\nsource = "content"\ntarget = "content"\n' +
      `[[module.mounts]]\nsource = '${corpus}'\ntarget = "content/blog"\n`,
  );
}

// --- The tools ---------------------------------------------------------------------------------
const storefrontVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
// The commit measured, and whether the working tree differs from it (read without taking git's index lock).
const commit = run('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).stdout?.trim();
const changed =
  commit &&
  run('git', ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=no'], { cwd: root }).stdout?.trim();
const hugoCache = path.join(scratch, 'hugo-cache');
/** The storefront's project folder: a copy of content/ and config, new for every cold run, one for warm runs. */
let storefrontProject;
function newStorefrontProject() {
  storefrontProject = mkdtempSync(path.join(scratch, 'storefront-project-'));
  cpSync(path.join(root, 'content'), path.join(storefrontProject, 'content'), { recursive: true });
}
const tools = [
  {
    name: 'eleventy',
    command: (out) => [
      process.execPath,
      [
        path.join(eleventyDir, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
        `--config=${path.join(eleventyDir, 'eleventy.config.js')}`,
        `--input=${corpus}`,
        `--output=${out}`,
      ],
    ],
    cwd: eleventyDir,
    clean: () => rmSync(path.join(eleventyDir, '.cache'), { recursive: true, force: true }),
    posts: (out) => ({
      pages: countFiles(
        path.join(out, 'blog'),
        (e) => e.isDirectory() && existsSync(path.join(out, 'blog', e.name, 'index.html')),
      ),
      list: path.join(out, 'blog', 'index.html'),
    }),
  },
  {
    name: 'hugo',
    skipped: !hugoVersion,
    command: (out) => ['hugo', ['--source', hugoSite, '--destination', out, '--cacheDir', hugoCache, '--quiet']],
    cwd: hugoSite,
    clean: () => {
      for (const made of [path.join(hugoSite, 'resources'), path.join(hugoSite, '.hugo_build.lock'), hugoCache])
        rmSync(made, { recursive: true, force: true });
    },
    posts: (out) => ({
      pages: countFiles(
        path.join(out, 'blog'),
        (e) => e.isDirectory() && existsSync(path.join(out, 'blog', e.name, 'index.html')),
      ),
      list: path.join(out, 'blog', 'index.html'),
    }),
  },
  {
    name: 'storefront',
    command: (out) => [
      process.execPath,
      [path.join(root, 'bin', 'storefront.js'), '--root', storefrontProject, 'build', '--posts', corpus, '--out', out],
    ],
    cwd: root,
    // A new project folder: no .cache/ (images, share cards, CMS posts), as on a new clone.
    clean: () => {
      if (storefrontProject) rmSync(storefrontProject, { recursive: true, force: true });
      newStorefrontProject();
    },
    posts: (out) => ({
      pages: countFiles(path.join(out, 'blog'), (e) => e.isFile() && e.name.endsWith('.html')),
      list: path.join(out, 'blog.html'),
    }),
  },
];
function countFiles(dir, test) {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter(test).length;
  } catch {
    return 0;
  }
}

// --- Timed runs --------------------------------------------------------------------------------
const gib = (bytes) => (bytes / 2 ** 30).toFixed(0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`bench:peers: ${count} posts, ${runs} ${warm ? 'warm' : 'cold'} run(s) per tool`);
console.log(
  `date ${new Date().toISOString().slice(0, 19)}Z | cpus ${cpus().length} | mem ${gib(totalmem())} GiB | ` +
    `node ${process.version} | load ${load()}`,
);
console.log(
  `versions: eleventy@${eleventyVersion} hugo@${hugoVersion ?? 'missing'} storefront@${storefrontVersion}` +
    `${commit ? ` (${commit}${changed ? ', with uncommitted changes' : ''})` : ''}`,
);
console.log(`corpus ${path.relative(root, corpus)} | outputs under ${scratchParent}\n`);

/** Files and bytes under a folder. */
function sizeOf(dir) {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** One build of `tool` into a fresh output folder, timed by GNU time; the output is measured and removed. */
function timedBuild(tool) {
  // Each build gets a fresh parent folder: the storefront keeps its record of the files it wrote beside --out.
  const parent = mkdtempSync(path.join(scratch, 'build-'));
  const out = path.join(parent, 'out');
  const [command, args] = tool.command(out);
  const started = process.hrtime.bigint();
  const result = run('/usr/bin/time', ['-f', 'BENCH-TIME %U %S %M', command, ...args], {
    cwd: tool.cwd,
    timeout: TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [, user, system, rssKb] = /BENCH-TIME ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr ?? '') ?? [];
  const { pages, list } = tool.posts(out);
  const size = existsSync(out) ? sizeOf(out) : { files: 0, bytes: 0 };
  const listExists = existsSync(list);
  rmSync(parent, { recursive: true, force: true });
  return {
    result,
    seconds,
    cpu: Number(user) + Number(system),
    rssMb: Number(rssKb) / 1024,
    pages,
    listExists,
    ...size,
  };
}

const active = tools.filter((t) => !t.skipped);
for (const tool of active) tool.results = [];
if (warm) {
  for (const tool of active) {
    tool.clean();
    timedBuild(tool); // untimed: fills the caches
  }
}
for (let r = 0; r < runs; r++) {
  for (let k = 0; k < active.length; k++) {
    const tool = active[(r + k) % active.length];
    if (!warm) tool.clean();
    const build = timedBuild(tool);
    const { result, seconds, pages } = build;
    let verdict = 'ok';
    if (result.error?.code === 'ETIMEDOUT') verdict = `invalid: over ${TIMEOUT_MS / 60000} min`;
    else if (result.status !== 0)
      verdict = `invalid: exit status ${result.status ?? result.signal ?? result.error?.message}`;
    else if (pages !== count || !build.listExists)
      verdict = `invalid: ${pages} post pages${build.listExists ? '' : ', no list page'}, expected ${count}`;
    console.log(
      `run ${r + 1}/${runs}  ${tool.name.padEnd(11)} ${seconds.toFixed(3).padStart(8)} s  ` +
        `${String(pages).padStart(6)} post pages  ${verdict}`,
    );
    if (verdict !== 'ok') console.log(tail(`${result.stdout ?? ''}${result.stderr ?? ''}`));
    tool.results.push({ ...build, ok: verdict === 'ok' });
  }
}
for (const tool of active) tool.clean();

// --- Summary -----------------------------------------------------------------------------------
// A tool is invalid when any of its runs was; ratios are medians over Eleventy's median.
const eleventy = tools[0];
const base = eleventy.results.every((x) => x.ok) ? median(eleventy.results.map((x) => x.seconds)) : undefined;
const row = (...cells) =>
  cells.map((c, i) => (i < 2 ? String(c).padEnd(i ? 8 : 11) : String(c).padStart(11))).join(' ');
const columns = 'tool status median_s min_s max_s cpu_s peak_rss_mb files output_mb pages/s vs_eleventy'.split(' ');
console.log(`\n${row(...columns)}`);
const ratios = [];
let anyInvalid = false;
for (const tool of tools) {
  if (tool.skipped) {
    console.log(row(tool.name, 'skipped', '-', '-', '-', '-', '-', '-', '-', '-', 'n/a'));
    ratios.push(`${tool.name}=n/a`);
    continue;
  }
  const times = tool.results.map((x) => x.seconds);
  const ok = tool.results.every((x) => x.ok);
  anyInvalid ||= !ok;
  const med = median(times);
  const ratio = !ok ? 'invalid' : base ? (med / base).toFixed(3) : 'n/a';
  const last = tool.results.at(-1);
  console.log(
    row(
      tool.name,
      ok ? 'ok' : 'invalid',
      med.toFixed(3),
      Math.min(...times).toFixed(3),
      Math.max(...times).toFixed(3),
      median(tool.results.map((x) => x.cpu)).toFixed(2),
      Math.round(median(tool.results.map((x) => x.rssMb))),
      last.files,
      (last.bytes / 2 ** 20).toFixed(1),
      ok ? Math.round(count / med) : '-',
      ratio,
    ),
  );
  ratios.push(`${tool.name}=${ratio}`);
}
console.log(
  `\n${warm ? 'warm' : 'cold'} builds; wall seconds of the whole process, spawn to exit; ` +
    'cpu_s and peak_rss_mb medians; files and output_mb of the last build; ' +
    `pages/s = ${count} / median; load now ${load()}`,
);
if (!base) note("Eleventy's result is invalid, so there are no ratios.");
console.log(`ratio-vs-eleventy: ${ratios.join(' ')}`);
process.exitCode = anyInvalid ? 1 : 0;
