// The blog synced with a real WordPress at scale (issue 41):
//   npm run bench:wordpress [-- --posts 4000 --keep]
// Installs Debian's wordpress, mariadb-server, php-cli and php-mysql when missing (as root), runs
// MariaDB and WordPress (PHP's built-in server, 4 workers) on 127.0.0.1 only, in a folder of its
// own, and seeds N posts, a few with featured images. Then it builds this project's site against
// it and prints, for each build, the CMS stage's time, the requests and bytes asked of WordPress,
// and the build's time:
//   1. the first build (no copy: a full fetch);
//   2. a second build, nothing changed (the light listing only);
//   3. a build after a batch of edits (publish, a new title, a new body, a new image, trash,
//      delete, unpublish, private, password, a slug changed, a scheduled post going live),
//      whose output folder is compared byte for byte with a full fetch's in a new project;
//   4. publish to output: one post published, then the build, timed together.
// Stops what it started and removes its folder (--keep leaves the folder). Asserts nothing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const postCount = Number(flag('--posts', '4000'));
const keep = args.includes('--keep');

const PACKAGES = ['wordpress', 'mariadb-server', 'php-cli', 'php-mysql'];
const have = (cmd) => spawnSync('bash', ['-c', `command -v ${cmd}`]).status === 0;
if (!have('php') || !have('mariadbd') || !existsSync('/usr/share/wordpress/wp-settings.php')) {
  if (process.getuid?.() !== 0) {
    console.error(`Install Debian's ${PACKAGES.join(', ')} first (apt-get, as root).`);
    process.exit(1);
  }
  console.log(`Installing ${PACKAGES.join(', ')} with apt-get…`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...PACKAGES], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

const scratch = mkdtempSync(path.join(tmpdir(), 'storefront-wordpress-'));
const children = [];
/** Stops the servers, waits for them to end, then removes the folder (unless --keep). */
async function stopAll() {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      stop(child, 'SIGTERM');
      return exited;
    }),
  );
  if (!keep) rmSync(scratch, { recursive: true, force: true });
}
// Whatever ends the run, no server is left behind (the folder is removed by the run's end).
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) stop(child, 'SIGKILL');
});
/** A server and what it forked (PHP's workers): each runs in a process group of its own. */
function stop(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll().then(() => process.exit(130)));
for (const event of ['uncaughtException', 'unhandledRejection'])
  process.on(event, (error) => {
    console.error(error);
    stopAll().then(() => process.exit(1));
  });

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForPort(port, what) {
  for (let i = 0; i < 300; i++) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start on 127.0.0.1:${port}`);
}

function start(command, argv, options = {}) {
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'], detached: true, ...options });
  let err = '';
  child.stderr.on('data', (chunk) => {
    err = (err + chunk).slice(-4000);
  });
  child.on('exit', (code) => {
    if (code && code !== 143 && code !== null) console.error(`${command} stopped (${code}):\n${err}`);
  });
  children.push(child);
  return child;
}

// MariaDB: a data folder of its own, TCP on 127.0.0.1 only, no grant tables (nothing else reaches it).
const dbPort = await freePort();
const dataDir = path.join(scratch, 'db');
execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${dataDir}`, '--user=root', '--skip-test-db'], {
  stdio: 'ignore',
});
start('mariadbd', [
  '--no-defaults',
  `--datadir=${dataDir}`,
  `--socket=${path.join(scratch, 'mysql.sock')}`,
  `--port=${dbPort}`,
  '--bind-address=127.0.0.1',
  '--skip-grant-tables',
  '--user=root',
]);
await waitForPort(dbPort, 'MariaDB');
execFileSync('mariadb', ['--no-defaults', '-h', '127.0.0.1', '-P', String(dbPort), '-e', 'CREATE DATABASE wp']);

// WordPress: Debian's files copied, a config of its own, pretty permalinks through a router.
const wpPort = await freePort();
const origin = `http://127.0.0.1:${wpPort}`;
const wpDir = path.join(scratch, 'wordpress');
cpSync('/usr/share/wordpress', wpDir, { recursive: true, dereference: true });
writeFileSync(
  path.join(wpDir, 'wp-config.php'),
  `<?php
define('DB_NAME', 'wp'); define('DB_USER', 'root'); define('DB_PASSWORD', '');
define('DB_HOST', '127.0.0.1:${dbPort}'); define('DB_CHARSET', 'utf8mb4'); define('DB_COLLATE', '');
$table_prefix = 'wp_';
define('WP_HOME', '${origin}'); define('WP_SITEURL', '${origin}');
define('DISABLE_WP_CRON', true); define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
);
writeFileSync(
  path.join(wpDir, 'router.php'),
  `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/' && is_file(__DIR__ . $path)) return false;
$_SERVER['SCRIPT_NAME'] = '/index.php';
require __DIR__ . '/index.php';
`,
);

/** Runs PHP with WordPress loaded: `code` is the body of a script. */
function wordpress(code, ...argv) {
  const file = path.join(scratch, 'task.php');
  writeFileSync(
    file,
    `<?php
$_SERVER['HTTP_HOST'] = '127.0.0.1:${wpPort}'; $_SERVER['REQUEST_URI'] = '/';
define('WP_INSTALLING', !file_exists('${scratch}/installed'));
require '${wpDir}/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/image.php';
${code}
`,
  );
  return execFileSync('php', [file, ...argv], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

console.log(`Seeding ${postCount} posts into WordPress at ${origin}…`);
const seedStarted = performance.now();
wordpress(`
wp_install('Storefront bench', 'admin', 'admin@example.com', false, '', 'admin-password');
update_option('permalink_structure', '/%postname%/');
flush_rewrite_rules();
touch('${scratch}/installed');
`);
wordpress(
  `
wp_defer_term_counting(true);
wp_suspend_cache_addition(true);
$images = [];
foreach ([1, 2, 3] as $n) {
  $im = imagecreatetruecolor(1200, 800);
  imagefilledrectangle($im, 0, 0, 1200, 800, imagecolorallocate($im, 40 * $n, 120, 200 - 40 * $n));
  imagefilledellipse($im, 300 * $n, 400, 500, 500, imagecolorallocate($im, 240, 200, 60));
  $upload = wp_upload_dir();
  $file = $upload['path'] . "/picture-$n.jpg";
  imagejpeg($im, $file, 85);
  $id = wp_insert_attachment(['post_mime_type' => 'image/jpeg', 'post_title' => "Picture $n",
    'post_status' => 'inherit'], $file);
  wp_update_attachment_metadata($id, wp_generate_attachment_metadata($id, $file));
  update_post_meta($id, '_wp_attachment_image_alt', "Picture $n");
  $images[] = $id;
}
file_put_contents('${scratch}/images.json', json_encode($images));
$count = (int) $argv[1];
$start = strtotime('2020-01-01 08:00:00');
for ($i = 1; $i <= $count; $i++) {
  $body = '';
  for ($p = 0; $p < 6; $p++)
    $body .= "<!-- wp:paragraph --><p>Note $i, part $p: post regularly, answer comments and watch what "
      . "your audience keeps.</p><!-- /wp:paragraph -->\\n";
  $id = wp_insert_post(['post_title' => "Growth note $i", 'post_name' => "growth-note-$i",
    'post_content' => $body, 'post_excerpt' => "Short advice number $i.", 'post_status' => 'publish',
    'post_date_gmt' => gmdate('Y-m-d H:i:s', $start + $i * 3600),
    'post_date' => gmdate('Y-m-d H:i:s', $start + $i * 3600)]);
  if ($i % 500 === 0) set_post_thumbnail($id, $images[($i / 500) % 2]);
}
// A post scheduled a minute ahead, not yet public: it goes live in the batch of edits.
$future = wp_insert_post(['post_title' => 'Scheduled note', 'post_name' => 'scheduled-note',
  'post_content' => '<p>Soon.</p>', 'post_status' => 'future',
  'post_date_gmt' => gmdate('Y-m-d H:i:s', time() + 60), 'post_date' => gmdate('Y-m-d H:i:s', time() + 60)]);
file_put_contents('${scratch}/future.json', json_encode($future));
`,
  String(postCount),
);
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`Seeded in ${seconds(performance.now() - seedStarted)}.`);

// OPcache on, as on any production PHP: without it each request compiles WordPress again.
start('php', ['-d', 'opcache.enable_cli=1', '-S', `127.0.0.1:${wpPort}`, '-t', wpDir, path.join(wpDir, 'router.php')], {
  env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
  cwd: wpDir,
});
await waitForPort(wpPort, 'PHP');
const apiUrl = `${origin}/wp-json`;
const probe = await fetch(`${apiUrl}/wp/v2/posts?per_page=1&_fields=id`);
const pageCount = Math.ceil(Number(probe.headers.get('x-wp-total')) / 100);
console.log(`WordPress answers ${probe.status}, X-WP-Total ${probe.headers.get('x-wp-total')}.`);

/** WordPress alone: every page of a query, four at a time (as the build asks), timed. */
async function timePages(query) {
  const started = performance.now();
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  const next = async () => {
    for (let page = pages.shift(); page !== undefined; page = pages.shift())
      await (await fetch(`${apiUrl}/wp/v2/posts?per_page=100&page=${page}&${query}`)).arrayBuffer();
  };
  await Promise.all([next(), next(), next(), next()]);
  return performance.now() - started;
}
const lightAlone = await timePages('_fields=id,modified_gmt');
const fullAlone = await timePages('_embed');
console.log(
  `WordPress alone, ${pageCount} pages four at a time: the light listing ${seconds(lightAlone)}, ` +
    `the full pages ${seconds(fullAlone)} (${(lightAlone / fullAlone).toFixed(3)}).`,
);

/** A project of its own: this tree's content/, built with this tree's CLI. */
function project(name) {
  const dir = path.join(scratch, name);
  cpSync(path.join(root, 'content'), path.join(dir, 'content'), { recursive: true });
  return dir;
}

/** One build: its wall time, the CMS stage's time (--verbose) and what the summary's cms: line says. */
function build(dir, ...flags) {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'bin', 'storefront.js'), '--root', dir, '--verbose', 'build', '--cms', apiUrl, ...flags],
    { encoding: 'utf8', env: { ...process.env, IMAGE_HOSTS: '' } },
  );
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`the build in ${dir} failed:\n${result.stderr}`);
  const cmsMs = Number(/^\s+cms\s+([\d.]+) s$/m.exec(result.stderr)?.[1] ?? Number.NaN) * 1000;
  const line = /^\s+cms: (.*)$/m.exec(result.stdout)?.[1] ?? '';
  const [, requests, kb] = /(\d+) requests, ([\d,]+) KB/.exec(line) ?? [];
  return { wallMs, cmsMs, line, requests: Number(requests), kb: Number(String(kb).replace(/,/g, '')) };
}

/** The output folder as a hash of every file's path and bytes. */
function treeHash(dir) {
  const hash = createHash('sha256');
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(`${path.relative(dir, file)}\0`).update(readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

const rows = [];
const report = (what, run, extra = '') => {
  rows.push({ what, ...run, extra });
  console.log(
    `${what}: CMS stage ${seconds(run.cmsMs)}, ${run.requests} requests, ${run.kb.toLocaleString('en-GB')} KB, ` +
      `build ${seconds(run.wallMs)}${extra}\n  cms: ${run.line}`,
  );
};

const site = project('site');
const first = build(site);
report('1. first build (full fetch)', first);
const second = build(site);
report('2. second build, nothing changed', second);

// The batch of edits, as an editor makes them in WordPress (its own functions, its own hooks).
const future = JSON.parse(readFileSync(path.join(scratch, 'future.json'), 'utf8'));
const wait = Math.max(
  0,
  JSON.parse(wordpress(`echo json_encode(strtotime(get_post(${future})->post_date_gmt . ' GMT') - time());`)),
);
console.log(`Waiting ${wait + 1} s for the scheduled post's time…`);
await new Promise((resolve) => setTimeout(resolve, (wait + 1) * 1000));
wordpress(`
$images = json_decode(file_get_contents('${scratch}/images.json'));
$id = fn($n) => get_page_by_path("growth-note-$n", OBJECT, 'post')->ID;
wp_insert_post(['post_title' => 'A new note', 'post_name' => 'a-new-note', 'post_content' => '<p>New.</p>',
  'post_status' => 'publish']);
wp_update_post(['ID' => $id(${postCount}), 'post_title' => 'A new title']);
wp_update_post(['ID' => $id(${postCount - 1}), 'post_content' => '<p>A new body.</p>']);
set_post_thumbnail($id(${postCount - 2}), $images[2]);
wp_update_post(['ID' => $id(${postCount - 2})]);
wp_trash_post($id(${postCount - 3}));
wp_delete_post($id(${postCount - 4}), true);
wp_update_post(['ID' => $id(${postCount - 5}), 'post_status' => 'draft']);
wp_update_post(['ID' => $id(${postCount - 6}), 'post_status' => 'private']);
wp_update_post(['ID' => $id(${postCount - 7}), 'post_password' => 'secret']);
wp_update_post(['ID' => $id(${postCount - 8}), 'post_name' => 'a-new-slug']);
check_and_publish_future_post(${future});
`);
const edited = build(site);
const full = project('full');
build(full);
const same = treeHash(path.join(site, 'dist')) === treeHash(path.join(full, 'dist'));
report('3. after the batch of edits', edited, `; output ${same ? 'equals' : 'DIFFERS FROM'} a full fetch's`);

const published = performance.now();
wordpress(
  `wp_insert_post(['post_title' => 'Published now', 'post_name' => 'published-now',
    'post_content' => '<p>Now.</p>', 'post_status' => 'publish']);`,
);
const live = build(site);
const publishMs = performance.now() - published;
const hasIt = existsSync(path.join(site, 'dist', 'blog', 'published-now.html'));
report('4. publish to output', live, `; publish to output ${seconds(publishMs)}${hasIt ? '' : ' (POST MISSING)'}`);

const limit = Math.floor(postCount / 100) + 1;
console.log(
  `\nTargets, ${postCount} posts: nothing changed, CMS stage ${seconds(second.cmsMs)} = ` +
    `${(second.cmsMs / first.cmsMs).toFixed(3)} of the full fetch's ${seconds(first.cmsMs)} (at most 0.1); ` +
    `${second.requests} requests (at most ${limit}); after the edits the output ${same ? 'equals' : 'DIFFERS FROM'} ` +
    `a full fetch's; publish to output ${seconds(publishMs)}.`,
);
await stopAll();
