import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seconds } from '../cli/build-report.js';
import { STOP_SIGNALS } from '../cli/command-helpers.js';
import { output } from '../cli/output.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { problem } from '../errors/catalogue.js';
import { DEV_TARGET, HOSTS } from '../hosts/hosts.js';
import { packageRoot } from '../package-root.js';
import { EXPOSED_NOTE, LOOPBACK, reachableFromNetwork, servingLines } from '../preview/listen-address.js';
import type { BuildOptions } from '../build.js';
import { DevBuilder, type BuildOutcome } from './dev-builder.js';
import { startDevServer, type DevServer, type DevState } from './dev-server.js';
import { DevGeneratorBundle } from './generator-bundle.js';
import { watchFolders } from './watch.js';
import { isBelow } from '../util/inside-project.js';

/** Every host's build-service variable (NETLIFY, CF_PAGES, GITHUB_ACTIONS), unset for dev's builds. */
const BUILD_SERVICES_UNSET = Object.fromEntries(
  HOSTS.flatMap((host) => (host.buildService ? [[host.buildService.variable, undefined]] : [])),
);

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
 * Open pages update themselves after a rebuild, or show its problems.
 */
export async function runDev(options: DevOptions): Promise<RunningDev> {
  return new DevSession(options).start();
}

/** One run of `storefront dev`, from its first build to its stop. */
class DevSession {
  private readonly root: string;
  private readonly generator = packageRoot();
  private readonly bundle: DevGeneratorBundle;
  private readonly tempDir: string;
  private readonly outDir: string;
  private builder: DevBuilder | undefined;
  /** Stopped before it served, or stopping. */
  private interrupted = false;
  /** Set once dev serves: from then on cli/commands/dev.ts stops it on STOP_SIGNALS. */
  private started = false;
  /** Why the generator's code cannot run (a template that does not compile), until it can. */
  private codeProblems: Problem[] | null = null;
  private state: DevState = { build: 0, problems: null };
  private cmsAsked = false;
  /** Files changed since the last build began; gathered while a build runs, for one more after it. */
  private pending: string[] = [];
  private running: Promise<void> | undefined;
  private server: DevServer | undefined;
  private stopWatching: () => void = () => {};

  constructor(private readonly options: DevOptions) {
    this.root = path.resolve(options.root);
    // Ctrl-C, TERM or a closed terminal's HUP before the server runs (the first build of a large
    // blog takes a while) must leave nothing behind either. Listened to before the temporary
    // folder exists, and until dev has stopped: a signal that comes while no one listens ends the
    // process at once, leaving the folder (and its drafts) behind.
    for (const signal of STOP_SIGNALS) process.on(signal, this.onInterrupt);
    this.bundle = new DevGeneratorBundle();
    // The site is a folder inside a temporary one, which also holds the build folders swapped into it (see SiteWriter).
    this.tempDir = mkdtempSync(path.join(devFolderParent(), 'storefront-dev-'));
    this.outDir = path.join(this.tempDir, 'site');
    output.detail(`Building into ${this.outDir} (removed when dev stops)`);
  }

  async start(): Promise<RunningDev> {
    // Watched from the start, so that a file saved during the first build is built again after it.
    this.watch();
    let server: DevServer | undefined;
    try {
      await this.loadCode();
      if (!this.interrupted) await this.buildAndReport('Built');
      if (!this.interrupted)
        server = await startDevServer(this.outDir, this.options.port, this.options.host ?? LOOPBACK);
    } catch (err) {
      // A port in use, say: nothing may stay behind, or the process would never end.
      await this.removeEverything();
      this.stopListening();
      throw err;
    }
    if (this.interrupted || !server) {
      await server?.close();
      if (!(await this.removeEverything())) endAtOnce();
      process.exit(0);
    }
    this.server = server;
    this.started = true;
    server.publish(this.state);
    for (const line of servingLines('Serving', server.addresses)) output.result(line);
    if (reachableFromNetwork(server.addresses.host)) output.info(EXPOSED_NOTE);
    if (this.options.open) openBrowser(server.url);
    // Changes saved during the first build were gathered already: they make the first rebuild.
    this.startRebuild();
    return { url: server.url, stop: () => this.stop() };
  }

  private async stop(): Promise<void> {
    // The rebuild under way is not waited for: the worker is ended in the middle of it, and
    // what it would report is no longer anyone's concern.
    this.interrupted = true;
    this.stopWatching();
    this.pending = [];
    await this.server?.close();
    const ended = await this.removeEverything();
    this.stopListening();
    if (!ended) endAtOnce();
  }

  private readonly onInterrupt = () => {
    if (this.started) return;
    this.interrupted = true;
    // A worker that cannot be ended never answers its build either: then nothing below runs on.
    void this.builder?.stop().then((ended) => ended || this.removeEverything().then(endAtOnce));
  };

  private stopListening(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.onInterrupt);
  }

  /** Removes what dev made; false when the build worker could not be ended (see DevBuilder.stop). */
  private async removeEverything(): Promise<boolean> {
    this.stopWatching();
    const ended = (await this.builder?.stop()) ?? true;
    this.bundle.remove();
    rmSync(this.tempDir, { recursive: true, force: true });
    return ended;
  }

  private watch(): void {
    const folders = [
      path.join(this.root, 'content'),
      path.join(this.generator, 'templates'),
      path.join(this.generator, 'src', 'browser'),
    ];
    this.stopWatching = watchFolders(this.bundle.fromSources ? folders : folders.slice(0, 1), (files) => {
      this.pending.push(...files);
      this.startRebuild();
    });
  }

  /** Starts rebuilding unless a rebuild runs (it takes the changes too); until the server runs, changes only gather. */
  private startRebuild(): void {
    const server = this.server;
    if (!server || this.pending.length === 0) return;
    this.running ??= this.rebuild(server).finally(() => {
      this.running = undefined;
    });
  }

  /** Builds while there are changes, and tells the open pages after each build. */
  private async rebuild(server: DevServer): Promise<void> {
    while (this.pending.length > 0) {
      const files = this.pending;
      this.pending = [];
      try {
        const codeChanged = files.some(
          (f) => f.startsWith(path.join(this.generator, 'templates')) && /\.tsx?$/.test(f),
        );
        const loadStarted = performance.now();
        if (codeChanged || this.codeProblems) await this.loadCode();
        // Bundling the code and starting a worker is most of a template edit's wait: said apart.
        const loaded = codeChanged ? ` (code reloaded in ${seconds(performance.now() - loadStarted, 2)})` : '';
        const names = changedNames(files, this.root, this.generator);
        const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
        await this.buildAndReport(`Rebuilt after ${names.slice(0, 3).join(', ')}${more} changed${loaded}`);
      } catch (err) {
        this.crashed(err as Error);
      }
      server.publish(this.state);
    }
  }

  /** (Re)loads the generator's code into a new worker, or keeps the old one if it does not compile. */
  private async loadCode(): Promise<void> {
    try {
      const entry = await this.bundle.make();
      if (this.builder) await this.builder.restart(entry);
      else this.builder = new DevBuilder(entry, (line) => output.info(line));
      this.bundle.prune();
      this.codeProblems = null;
    } catch (err) {
      if (!(err instanceof StorefrontError)) throw err;
      this.codeProblems = [...err.problems];
    }
  }

  private async buildAndReport(reason: string): Promise<void> {
    if (this.codeProblems || !this.builder) return this.fail(this.codeProblems ?? []);
    const outcome = await this.builder.build(this.buildOptions());
    this.cmsAsked = true;
    // Ctrl-C during a build ends the worker: that is no crash to report.
    if (!this.interrupted) this.report(outcome, reason);
  }

  private buildOptions(): Omit<BuildOptions, 'log' | 'progress'> {
    return {
      root: this.root,
      outDir: this.outDir,
      // The CMS is asked once, at start; later rebuilds use the posts it gave (.cache/cms).
      cmsMode: this.cmsAsked ? 'offline' : 'stale-ok',
      // dev publishes nothing: the example values may stand whatever SITE_URL says.
      allowPlaceholders: true,
      // An editor looks at drafts and scheduled posts in dev before they are published.
      drafts: true,
      // dev serves the site at the root of its own address, whatever basePath says,
      basePath: '',
      // with the redirects and headers of _redirects and _headers, as Cloudflare Pages would.
      target: DEV_TARGET,
      // dev publishes nothing: what CI and the hosts' build services are told about the site's
      // address (a warning, a refusal) is not for it.
      env: { ...process.env, CI: undefined, ...BUILD_SERVICES_UNSET },
    };
  }

  private report(outcome: BuildOutcome, reason: string): void {
    if (outcome.kind === 'built') {
      const { summary } = outcome;
      output.info(
        `${reason}: ${summary.pagesRendered} of ${summary.pages} pages rendered, in ${seconds(summary.totalMs, 2)}.`,
      );
      for (const warning of summary.warnings) output.warn(`warning: ${warning}`);
      this.state = { build: this.state.build + 1, problems: null };
    } else if (outcome.kind === 'failed') {
      this.fail(outcome.problems);
    } else {
      this.crashed(Object.assign(new Error(outcome.message), { stack: outcome.stack }));
    }
  }

  private fail(problems: Problem[]): void {
    const served = this.state.build > 0;
    output.error(
      new StorefrontError(
        problems,
        served ? 'The last good build is still served.' : 'Nothing can be served until this is fixed.',
      ),
      this.options.debug === true,
    );
    this.state = {
      build: this.state.build,
      problems,
      footer: served ? 'The page shown is the last good build.' : undefined,
    };
  }

  /** Not a problem with the content: a bug, or the system refusing. Dev goes on. */
  private crashed(err: Error): void {
    output.error(err, this.options.debug === true);
    this.state = {
      build: this.state.build,
      problems: [problem('buildCrashed', { message: err.message })],
      footer: this.state.build > 0 ? 'The page shown is the last good build.' : undefined,
    };
  }
}

/** Free space a shared-memory folder must have to hold dev's site: a large blog with its images. */
const SHARED_MEMORY_ROOM = 2 * 1024 ** 3;

/**
 * Where dev builds: the folder TMPDIR names when it is set; else in memory (Linux's /dev/shm)
 * when it has room, as every rebuild writes the whole site again (a price edit is seen 30–60 ms
 * sooner than on a disk); else the system's temporary folder.
 */
function devFolderParent(): string {
  if (process.env.TMPDIR) return tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= SHARED_MEMORY_ROOM) return '/dev/shm';
  } catch {
    // No such folder (macOS, Windows), or not ours to write.
  }
  return tmpdir();
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
