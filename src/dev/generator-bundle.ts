import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildFailure, BuildOptions } from 'esbuild';
import { problem } from '../errors/catalogue.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { packageRoot } from '../package-root.js';
import { isRunning } from '../util/is-running.js';

/**
 * How the generator is bundled by esbuild: by `npm run compile` (scripts/compile.mjs, the CLI
 * from the TypeScript sources) and by `storefront dev` (its build worker from the TypeScript
 * sources, again after each template edit). React's production build is chosen at bundle time.
 */
export function generatorBundleOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions {
  return {
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Loaded only by the commands that need them, or shipping files of their own.
    external: ['esbuild', 'linkinator', 'undici', 'sanitize-html', 'playwright-core', 'sharp'],
    // CommonJS packages inside an ES module bundle still call require().
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; " +
        'const require = __createRequire(import.meta.url);',
    },
    logLevel: 'silent',
  };
}

/**
 * The build code that `storefront dev` runs in its worker. With the generator's sources at hand
 * (this repository), they are bundled afresh into lib/ (where packageRoot() finds the package
 * from), so an edited template takes effect without `npm run compile`; otherwise the bundle
 * made by `npm run compile` is used as it is.
 *
 * Each bundle goes into a folder of its own (lib/dev-bundle-<pid>/<n>/): the worker running the
 * previous one still loads chunks from it on demand, and must keep doing so if the new one
 * fails to compile. `prune` removes the older ones once a new worker runs.
 */
export class DevGeneratorBundle {
  private readonly generator = packageRoot();
  private readonly dir = path.join(this.generator, 'lib', `dev-bundle-${process.pid}`);
  private made = 0;
  private current: string | undefined;

  /** True when templates and sources can be rebundled (the dev command then watches them). */
  get fromSources(): boolean {
    return existsSync(path.join(this.generator, 'src', 'dev', 'build-worker.ts'));
  }

  /**
   * Bundles the sources (when there are any) and returns the worker's entry file. Code that
   * does not compile (a template saved half-edited) is a StorefrontError naming file and line.
   */
  async make(): Promise<string> {
    if (!this.fromSources) return path.join(this.generator, 'lib', 'bundle', 'build-worker.js');
    const { build } = await import('esbuild');
    if (this.made === 0) removeAbandonedBundles(path.dirname(this.dir));
    const outdir = path.join(this.dir, String(++this.made));
    try {
      await build({
        ...generatorBundleOptions(
          { 'build-worker': path.join(this.generator, 'src', 'dev', 'build-worker.ts') },
          outdir,
        ),
        // Places in messages relative to the generator: templates/Footer.tsx.
        absWorkingDir: this.generator,
      });
    } catch (err) {
      rmSync(outdir, { recursive: true, force: true });
      throw compileProblems(err);
    }
    this.current = outdir;
    return path.join(outdir, 'build-worker.js');
  }

  /** Removes every bundle of this process but the latest (call once its worker runs). */
  prune(): void {
    if (!this.current || !existsSync(this.dir)) return;
    for (const name of readdirSync(this.dir)) {
      const folder = path.join(this.dir, name);
      if (folder !== this.current) rmSync(folder, { recursive: true, force: true });
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** esbuild's errors (a syntax error in a template) as problems; anything else as it is. */
function compileProblems(err: unknown): unknown {
  const messages = (err as Partial<BuildFailure>).errors;
  if (!Array.isArray(messages) || messages.length === 0) return err;
  return new StorefrontError(
    messages.map((m) =>
      problem('codeNotCompiled', { error: m.text }, { file: m.location?.file, line: m.location?.line }),
    ),
  );
}

/** Bundles left by a `dev` that was killed before it could remove its own. */
function removeAbandonedBundles(libDir: string): void {
  for (const name of readdirSync(libDir)) {
    const pid = Number(/^dev-bundle-(\d+)$/.exec(name)?.[1]);
    if (pid && !isRunning(pid)) rmSync(path.join(libDir, name), { recursive: true, force: true });
  }
}
