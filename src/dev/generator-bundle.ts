import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { packageRoot } from '../package-root.js';

/**
 * How the generator is bundled by esbuild: by `npm run compile` (scripts/bundle-cli.mjs, from the
 * compiled lib/src) and by `storefront dev` (from the TypeScript sources, again after each
 * template edit). One file to load instead of hundreds of modules, and React's production build
 * chosen at bundle time.
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
    external: ['esbuild', 'linkinator', 'undici', 'sanitize-html', 'playwright-core'],
    // CommonJS packages inside an ES module bundle still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'silent',
  };
}

/**
 * The build code that `storefront dev` runs in its worker. With the generator's sources at hand
 * (this repository), they are bundled afresh into lib/ (where packageRoot() finds the package
 * from), so an edited template takes effect without `npm run compile`; otherwise the bundle
 * made by `npm run compile` is used as it is.
 */
export class DevGeneratorBundle {
  private readonly generator = packageRoot();
  private readonly outdir = path.join(this.generator, 'lib', `dev-bundle-${process.pid}`);

  /** True when templates and sources can be rebundled (the dev command then watches them). */
  get fromSources(): boolean {
    return existsSync(path.join(this.generator, 'src', 'dev', 'build-worker.ts'));
  }

  /** Bundles the sources (when there are any) and returns the worker's entry file. */
  async make(): Promise<string> {
    if (!this.fromSources) return path.join(this.generator, 'lib', 'bundle', 'build-worker.js');
    const { build } = await import('esbuild');
    removeAbandonedBundles(path.dirname(this.outdir));
    rmSync(this.outdir, { recursive: true, force: true });
    await build(
      generatorBundleOptions(
        {
          'build-worker': path.join(this.generator, 'src', 'dev', 'build-worker.ts'),
          // Must sit beside the code that starts it: load-posts resolves './posts-worker.js'.
          'posts-worker': path.join(this.generator, 'src', 'content', 'posts-worker.ts'),
        },
        this.outdir,
      ),
    );
    return path.join(this.outdir, 'build-worker.js');
  }

  remove(): void {
    rmSync(this.outdir, { recursive: true, force: true });
  }
}

/** Bundles left by a `dev` that was killed before it could remove its own. */
function removeAbandonedBundles(libDir: string): void {
  for (const name of readdirSync(libDir)) {
    const pid = Number(/^dev-bundle-(\d+)$/.exec(name)?.[1]);
    if (pid && !isRunning(pid)) rmSync(path.join(libDir, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
