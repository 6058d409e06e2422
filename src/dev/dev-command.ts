import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { output } from '../cli/output.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { codes } from '../errors/codes.js';
import { packageRoot } from '../package-root.js';
import type { BuildOptions } from '../build.js';
import { DevBuilder, type BuildOutcome } from './dev-builder.js';
import { startDevServer, type DevState } from './dev-server.js';
import { DevGeneratorBundle } from './generator-bundle.js';
import { watchFolders } from './watch.js';

export interface DevOptions {
  root: string;
  port: number;
  open: boolean;
}

export interface RunningDev {
  url: string;
  stop(): Promise<void>;
}

/**
 * `storefront dev`: builds into a temporary folder, serves it on 127.0.0.1, and rebuilds on
 * every change to the content, the templates, the browser script or the config file. Each
 * rebuild goes through the build cache, so only the pages a change affects are rendered and
 * written; a template change reloads the generator's code first, and then every page is
 * rendered again. Open pages reload themselves after a rebuild, or show its problems.
 */
export async function runDev(options: DevOptions): Promise<RunningDev> {
  const root = path.resolve(options.root);
  const outDir = mkdtempSync(path.join(tmpdir(), 'storefront-dev-'));
  const generator = packageRoot();
  const bundle = new DevGeneratorBundle();
  const builder = new DevBuilder(await bundle.make(), (line) => output.info(line));
  let state: DevState = { build: 0, problems: null };
  let firstBuild = true;

  const buildOptions = (): Omit<BuildOptions, 'log' | 'progress'> => ({
    root,
    outDir,
    // The CMS is asked once, at start; later rebuilds use the posts it gave (.cache/cms).
    cmsMode: firstBuild ? 'stale-ok' : 'offline',
  });
  const report = (outcome: BuildOutcome, reason: string) => {
    if (outcome.kind === 'built') {
      const { summary } = outcome;
      const rendered = summary.pages - summary.pagesKept;
      const written = summary.written.files === 1 ? '1 file written' : `${summary.written.files} files written`;
      output.info(`${reason}: ${rendered} of ${summary.pages} pages rendered, ${written}, in ${(summary.totalMs / 1000).toFixed(2)} s.`);
      for (const warning of summary.warnings) output.warn(`warning: ${warning}`);
      state = { build: state.build + 1, problems: null };
    } else if (outcome.kind === 'failed') {
      output.error(new StorefrontError(outcome.problems, 'The last good build is still served.'), false);
      state = { build: state.build, problems: outcome.problems, footer: 'The page shown is the last good build.' };
    } else {
      output.error(Object.assign(new Error(outcome.message), { stack: outcome.stack }), false);
      state = {
        build: state.build,
        problems: [{ code: codes.internal, message: `The build stopped unexpectedly: ${outcome.message}`, hint: 'This is a bug in the generator; the terminal has the details with --debug.' }],
      };
    }
  };

  const first = await builder.build(buildOptions());
  report(first, 'Built');
  firstBuild = false;
  let server: Awaited<ReturnType<typeof startDevServer>>;
  try {
    server = await startDevServer(outDir, options.port);
  } catch (err) {
    // A port in use, say: nothing may stay behind, or the process would never end.
    await builder.stop();
    bundle.remove();
    rmSync(outDir, { recursive: true, force: true });
    throw err;
  }
  server.publish(state);
  output.result(`Serving at ${server.url} (Ctrl-C to stop)`);
  if (options.open) openBrowser(server.url);

  // Changes that arrive while a build runs are gathered for one more build after it.
  let running: Promise<void> | undefined;
  let pending: string[] = [];
  const rebuild = async () => {
    while (pending.length > 0) {
      const files = pending;
      pending = [];
      const codeChanged = files.some((f) => f.startsWith(path.join(generator, 'templates')) && /\.tsx?$/.test(f));
      if (codeChanged) await builder.restart(await bundle.make());
      const names = changedNames(files, root, generator);
      const outcome = await builder.build(buildOptions());
      report(outcome, `Rebuilt after ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed`);
      server.publish(state);
    }
  };
  const folders = [path.join(root, 'content'), path.join(generator, 'templates'), path.join(generator, 'src', 'browser')];
  const stopWatching = watchFolders(bundle.fromSources ? folders : folders.slice(0, 1), (files) => {
    pending.push(...files);
    running ??= rebuild().finally(() => (running = undefined));
  });

  return {
    url: server.url,
    async stop() {
      stopWatching();
      await running;
      await server.close();
      await builder.stop();
      bundle.remove();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * The changed files to name in the terminal. Editors save through temporary files that are gone
 * by now (`sed -i`, vim): files that still exist are named, or else the folders changed in.
 */
function changedNames(files: readonly string[], root: string, generator: string): string[] {
  const relative = (f: string) => path.relative(f.startsWith(root + path.sep) ? root : generator, f);
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
