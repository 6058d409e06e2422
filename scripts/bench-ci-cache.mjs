// What keeping .cache/ between CI runs saves (docs/examples/github-rebuild.yml, actions/cache):
//   node scripts/bench-ci-cache.mjs [--posts N] [--latency MS]
// A WordPress blog (the tests' FakeWordPress on 127.0.0.1, as scripts/bench-images.mjs serves it:
// N posts, 40 by default, half with a distinct 1200 x 800 featured image) is built as CI builds
// it (`build --precompress`, what `npm run build` runs) twice, each time in a fresh copy of the
// project's content/ (CI's fresh clone, at another path each time):
//   1. cold: no .cache/, as a workflow without actions/cache builds every run;
//   2. restored: the first copy's .cache/ copied in first, modification times kept (actions/cache
//      restores a tar archive, which keeps them: the build's 30-day pruning goes by them).
// For each it prints the wall time from spawn to exit, the build's own total and images stage
// (--verbose), and what the fake WordPress served: image downloads (200), images answered
// "unchanged" (304) and requests for posts. --latency delays each answer of WordPress by MS
// milliseconds, as a WordPress across the internet does. It reports, it does not judge.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importFakeWordPress } from './fake-wordpress.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const postCount = Number(option('--posts', '40'));
const work = mkdtempSync(path.join(tmpdir(), 'bench-ci-cache-'));

// The fake WordPress is the tests' own (see scripts/fake-wordpress.mjs).
const { FakeWordPress, makePosts } = await importFakeWordPress('bench-ci-fake-wordpress.mjs');

const bytesIn = (dir) =>
  readdirSync(dir, { recursive: true }).reduce(
    (sum, f) => sum + (statSync(path.join(dir, f)).isFile() ? statSync(path.join(dir, f)).size : 0),
    0,
  );

/** A fresh copy of the project's content: what a CI run checks out (.cache/ is not in git). */
function freshClone(name) {
  const root = path.join(work, name);
  cpSync(path.join(here, 'content'), path.join(root, 'content'), { recursive: true });
  return root;
}

/** One CI-style build, run asynchronously: the fake WordPress answers from this process meanwhile. */
async function ciBuild(root, wp) {
  const first = wp.requests.length;
  const started = performance.now();
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [path.join(here, 'bin/storefront.js'), '--root', root, 'build', '--precompress', '--verbose', '--cms', wp.apiUrl],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 * 2 ** 20,
    },
  );
  const wallS = (performance.now() - started) / 1000;
  const served = wp.requests.slice(first);
  const media = served.filter((r) => r.url.startsWith('/media/'));
  return {
    wallS,
    headline: /^Built .*$/m.exec(stdout)?.[0]?.replace(/ into \S+ in /, ' into dist in ') ?? '(no headline)',
    totalS: /into \S+ in ([\d.]+) s/.exec(stdout)?.[1] ?? '?',
    // --verbose: `  images     0.093 s` on stderr (the line scripts/bench.mjs reads too).
    imagesS: /^\s+images\s+([\d.]+) s$/m.exec(stderr)?.[1] ?? '?',
    downloads: media.filter((r) => r.status === 200).length,
    unchanged: media.filter((r) => r.status === 304).length,
    postRequests: served.length - media.length,
  };
}

const print = (label, run) => {
  console.log(
    `  ${label}: wall ${run.wallS.toFixed(2)} s (build's own total ${run.totalS} s), images stage ${run.imagesS} s`,
  );
  console.log(
    `    fake WordPress served: ${run.downloads} image downloads (200), ${run.unchanged} images unchanged (304), ` +
      `${run.postRequests} post requests`,
  );
  console.log(`    ${run.headline}`);
};

const wp = await new FakeWordPress(makePosts(postCount)).start();
wp.faults.slowMs = Number(option('--latency', '0'));
// As scripts/bench-images.mjs: each image full size (1200 x 800) and a picture of its own.
wp.mediaScale = 1;
wp.sameMedia = false;
try {
  const images = makePosts(postCount).filter((post) => post.featuredMedia).length;
  console.log(
    `CI rebuild of a WordPress blog: ${postCount} posts, ${images} featured images of 1200 x 800, ` +
      `${wp.faults.slowMs} ms a request; node ${process.version}`,
  );
  const cold = freshClone('run-1');
  print('run 1, fresh clone, empty .cache/ (no actions/cache)', await ciBuild(cold, wp));
  const cache = path.join(cold, '.cache');
  const megabytesIn = (folder) => (bytesIn(folder) / 1024 / 1024).toFixed(1);
  console.log(
    `  .cache/ after run 1: ${megabytesIn(cache)} MB (.cache/cms ${megabytesIn(path.join(cache, 'cms'))} MB, ` +
      `.cache/images ${megabytesIn(path.join(cache, 'images'))} MB): what actions/cache saves`,
  );
  const restored = freshClone('run-2');
  cpSync(cache, path.join(restored, '.cache'), { recursive: true, preserveTimestamps: true });
  print('run 2, fresh clone, .cache/ of run 1 restored (actions/cache)', await ciBuild(restored, wp));
} finally {
  await wp.stop();
  rmSync(work, { recursive: true, force: true });
}
