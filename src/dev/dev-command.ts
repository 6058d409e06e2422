import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seconds } from '../cli/build-report.js';
import { output } from '../cli/output.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { codes } from '../errors/catalogue.js';
import { packageRoot } from '../package-root.js';
import { EXPOSED_NOTE, LOOPBACK, reachableFromNetwork, servingLines } from '../preview/listen-address.js';
import type { BuildOptions } from '../build.js';
import { DevBuilder, type BuildOutcome } from './dev-builder.js';
import { startDevServer, type DevServer, type DevState } from './dev-server.js';
import { DevGeneratorBundle } from './generator-bundle.js';
import { watchFolders } from './watch.js';
import { isBelow } from '../util/inside-project.js';

/** The signals that stop dev, as main.ts stops it once it runs: each removes the temporary folder. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface DevOptions {
  root: string;
  port: number;
  /** The address to listen on: 127.0.0.1 by default, 0.0.0.0 (or ::) for every interface. */
  host?: string;
  open: boolean;
  /** Stack traces of unexpected errors in the terminal. */
  debug?: boolean;
}

export interface RunningDev {
  url: string;
  stop(): Promise<void>;
}

/**
 * `storefront dev`: builds into a temporary folder, serves it on 127.0.0.1 (or `--host`), and rebuilds on
 * every change to the content, the templates, the browser script or the config file. The
 * builds run in a warm worker that keeps parsed posts and rendered pages in memory (BuildMemo),
 * so a rebuild parses only the posts that changed and renders only the pages whose props
 * changed; a template change reloads the generator's code (and so starts a new memo) first.
 * Open pages reload themselves after a rebuild, or show its problems.
 */
export async function runDev(options: DevOptions): Promise<RunningDev> {
  const root = path.resolve(options.root);
  const generator = packageRoot();
  let builder: DevBuilder | undefined;
  let interrupted = false;
  /** Set once dev serves: from then on main.ts stops it on these signals. */
  let started = false;
  // Ctrl-C, TERM or a closed terminal's HUP before the server runs (the first build of a large
  // blog takes a while) must leave nothing behind either. Listened to before the temporary
  // folder exists, and until dev has stopped: a signal that comes while no one listens ends the
  // process at once, leaving the folder (and its drafts) behind.
  const onInterrupt = () => {
    if (started) return;
    interrupted = true;
    // A worker that cannot be ended never answers its build either: then nothing below runs on.
    void builder?.stop().then((ended) => ended || removeEverything().then(endAtOnce));
  };
  const stopListening = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onInterrupt);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onInterrupt);
  const bundle = new DevGeneratorBundle();
  // The site is a folder inside a temporary one, which also holds the build folders swapped into it (see SiteWriter).
  const tempDir = mkdtempSync(path.join(tmpdir(), 'storefront-dev-'));
  const outDir = path.join(tempDir, 'site');
  output.detail(`Building into ${outDir} (removed when dev stops)`);
  /** Why the generator's code cannot run (a template that does not compile), until it can. */
  let codeProblems: Problem[] | null = null;
  let state: DevState = { build: 0, problems: null };
  let cmsAsked = false;

  /** Removes what dev made; false when the build worker could not be ended (see DevBuilder.stop). */
  const removeEverything = async (): Promise<boolean> => {
    stopWatching();
    const ended = (await builder?.stop()) ?? true;
    bundle.remove();
    rmSync(tempDir, { recursive: true, force: true });
    return ended;
  };
  const buildOptions = (): Omit<BuildOptions, 'log' | 'progress'> => ({
    root,
    outDir,
    // The CMS is asked once, at start; later rebuilds use the posts it gave (.cache/cms).
    cmsMode: cmsAsked ? 'offline' : 'stale-ok',
    // dev publishes nothing: the example values may stand whatever SITE_URL says.
    allowPlaceholders: true,
    // An editor looks at drafts and scheduled posts in dev before they are published.
    drafts: true,
    // dev serves the site at the root of its own address, whatever basePath says,
    basePath: '',
    // with the redirects and headers of _redirects and _headers, as Cloudflare Pages would.
    target: 'cloudflare',
    // dev publishes nothing: what CI and the hosts' build services are told about the site's
    // address (a warning, a refusal) is not for it.
    env: { ...process.env, CI: undefined, NETLIFY: undefined, CF_PAGES: undefined, GITHUB_ACTIONS: undefined },
  });
  const fail = (problems: Problem[]) => {
    const served = state.build > 0;
    output.error(
      new StorefrontError(
        problems,
        served ? 'The last good build is still served.' : 'Nothing can be served until this is fixed.',
      ),
      options.debug === true,
    );
    state = { build: state.build, problems, footer: served ? 'The page shown is the last good build.' : undefined };
  };
  const report = (outcome: BuildOutcome, reason: string) => {
    if (outcome.kind === 'built') {
      const { summary } = outcome;
      output.info(
        `${reason}: ${summary.pagesRendered} of ${summary.pages} pages rendered, in ${seconds(summary.totalMs, 2)}.`,
      );
      for (const warning of summary.warnings) output.warn(`warning: ${warning}`);
      state = { build: state.build + 1, problems: null };
    } else if (outcome.kind === 'failed') {
      fail(outcome.problems);
    } else {
      crashed(Object.assign(new Error(outcome.message), { stack: outcome.stack }));
    }
  };
  /** Not a problem with the content: a bug, or the system refusing. Dev goes on. */
  const crashed = (err: Error) => {
    output.error(err, options.debug === true);
    state = {
      build: state.build,
      problems: [
        {
          code: codes.internal,
          message: `The build stopped unexpectedly: ${err.message}`,
          hint: 'This may be a bug in the generator; the terminal has the details with --debug.',
        },
      ],
      footer: state.build > 0 ? 'The page shown is the last good build.' : undefined,
    };
  };
  /** (Re)loads the generator's code into a new worker, or keeps the old one if it does not compile. */
  const loadCode = async () => {
    try {
      const entry = await bundle.make();
      if (builder) await builder.restart(entry);
      else builder = new DevBuilder(entry, (line) => output.info(line));
      bundle.prune();
      codeProblems = null;
    } catch (err) {
      if (!(err instanceof StorefrontError)) throw err;
      codeProblems = [...err.problems];
    }
  };
  const buildAndReport = async (reason: string) => {
    if (codeProblems || !builder) return fail(codeProblems ?? []);
    const outcome = await builder.build(buildOptions());
    cmsAsked = true;
    // Ctrl-C during a build ends the worker: that is no crash to report.
    if (!interrupted) report(outcome, reason);
  };

  // Watched from the start, so that a file saved during the first build is built again after it.
  // Changes that arrive while a build runs are gathered for one more build after it.
  let running: Promise<void> | undefined;
  let pending: string[] = [];
  /** Set once the server runs; until then changes only gather in `pending`. */
  let startRebuild = () => {};
  /** Builds while there are changes, and tells the open pages after each build. */
  const rebuild = async (server: DevServer) => {
    while (pending.length > 0) {
      const files = pending;
      pending = [];
      try {
        const codeChanged = files.some((f) => f.startsWith(path.join(generator, 'templates')) && /\.tsx?$/.test(f));
        const loadStarted = performance.now();
        if (codeChanged || codeProblems) await loadCode();
        // Bundling the code and starting a worker is most of a template edit's wait: said apart.
        const loaded = codeChanged ? ` (code reloaded in ${seconds(performance.now() - loadStarted, 2)})` : '';
        const names = changedNames(files, root, generator);
        await buildAndReport(
          `Rebuilt after ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed${loaded}`,
        );
      } catch (err) {
        crashed(err as Error);
      }
      server.publish(state);
    }
  };
  const folders = [
    path.join(root, 'content'),
    path.join(generator, 'templates'),
    path.join(generator, 'src', 'browser'),
  ];
  const stopWatching = watchFolders(bundle.fromSources ? folders : folders.slice(0, 1), (files) => {
    pending.push(...files);
    startRebuild();
  });

  let server: DevServer | undefined;
  try {
    await loadCode();
    if (!interrupted) await buildAndReport('Built');
    if (!interrupted) server = await startDevServer(outDir, options.port, options.host ?? LOOPBACK);
  } catch (err) {
    // A port in use, say: nothing may stay behind, or the process would never end.
    await removeEverything();
    stopListening();
    throw err;
  }
  if (interrupted || !server) {
    await server?.close();
    if (!(await removeEverything())) endAtOnce();
    process.exit(0);
  }
  const serving = server;
  started = true;
  startRebuild = () => {
    if (pending.length > 0) running ??= rebuild(serving).finally(() => (running = undefined));
  };
  server.publish(state);
  for (const line of servingLines('Serving', server.addresses)) output.result(line);
  if (reachableFromNetwork(server.addresses.host)) output.info(EXPOSED_NOTE);
  if (options.open) openBrowser(server.url);

  // Changes saved during the first build were gathered already: they make the first rebuild.
  startRebuild();

  return {
    url: server.url,
    async stop() {
      // The rebuild under way is not waited for: the worker is ended in the middle of it, and
      // what it would report is no longer anyone's concern.
      interrupted = true;
      stopWatching();
      pending = [];
      await server.close();
      const ended = await removeEverything();
      stopListening();
      if (!ended) endAtOnce();
    },
  };
}

/**
 * Ends the process now. A thread stuck in a system call keeps any exit from completing (Node
 * joins its threads first); dev's temporary folder is removed by then, so nothing is lost.
 */
function endAtOnce(): never {
  output.info('A build was stuck in the system (a file that never ends reading); dev ended it.');
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/**
 * The changed files to name in the terminal. Editors save through temporary files that are gone
 * by now (`sed -i`, vim): files that still exist are named, or else the folders changed in.
 */
function changedNames(files: readonly string[], root: string, generator: string): string[] {
  const relative = (f: string) => path.relative(isBelow(root, f) ? root : generator, f);
  const existing = files.filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
  const named = existing.length > 0 ? existing.map(relative) : files.map((f) => `${path.dirname(relative(f))}/`);
  return [...new Set(named)].sort();
}

/** The system's browser, when there is one; dev goes on without it. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => output.info(`Open ${url} in a browser (${command} is not available).`));
    child.unref();
  } catch {
    output.info(`Open ${url} in a browser.`);
  }
}
