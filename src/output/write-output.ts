import { lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { StorefrontError } from '../errors/storefront-error.js';
import { isRunning } from '../util/is-running.js';
import { isCompressible, precompressed } from './compress.js';

export interface OutputFile {
  /** Path under the output folder, with forward slashes. */
  file: string;
  contents: string | Buffer;
}

/**
 * The output folder is replaced whole, so it must never be the project, its content or its
 * code, nor a folder of something else. Checked before the build does any work. A folder that a
 * killed first switch moved aside (see `commit`), with nothing in its place, is put back first,
 * so that a build failing later does not lose it.
 */
export function checkOutputFolder(outDir: string, root: string): void {
  const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + path.sep);
  const protectedDirs = ['content', 'src', 'templates', 'bin', 'test', 'node_modules', '.git', '.cache'].map((d) => path.join(root, d));
  let reason: string | undefined;
  const found = lstatSync(outDir, { throwIfNoEntry: false });
  if (inside(root, outDir)) reason = 'it is the project folder or holds it';
  else if (protectedDirs.some((d) => inside(outDir, d))) reason = "it is inside a folder of the project's own files";
  else if (found?.isSymbolicLink() && buildOf(outDir, readlinkSync(outDir)) === undefined) reason = 'it is a link that an earlier build did not make';
  else if (found && !found.isSymbolicLink()) {
    const names = found.isDirectory() ? readdirSync(outDir) : ['(a file)'];
    if (names.length > 0 && !names.includes('index.html') && !names.includes('404.html')) {
      reason = 'it holds files that do not look like an earlier build';
    }
  }
  if (reason) {
    throw new StorefrontError({
      code: codes.badFlag,
      file: outDir,
      message: `The build will not write to this folder: ${reason}. The output folder is replaced as a whole.`,
      hint: 'Choose an empty or new folder, e.g. --out dist.',
    });
  }
  const parent = path.dirname(outDir);
  if (!found && lstatSync(parent, { throwIfNoEntry: false })) {
    const aside = readdirSync(parent).find((name) => {
      const pid = name.endsWith('-old') ? buildOf(outDir, name) : undefined;
      return pid !== undefined && !isRunning(pid);
    });
    if (aside) renameSync(path.join(parent, aside), outDir);
  }
}

/**
 * The one writer of the output folder. The whole site is written into a new folder beside it
 * (`.dist.build-<pid>-<time>` for `dist`), and `commit` makes the output path a link to that
 * folder with a single rename, which the system does atomically: whenever a build stops, even
 * killed, `dist` is exactly the previous build or exactly the new one, never a mix (the way
 * Capistrano's `current` link and Netlify's atomic deploys work). The previous build's folder is
 * removed after the switch; a build that was killed leaves its folder, which the next build into
 * the same place removes.
 */
export class SiteWriter {
  /** Bytes and files written. */
  bytes = 0;
  files = 0;
  /** The folder the site is written into, until it becomes the output. */
  readonly dir: string;
  /** Folders already made. */
  private readonly dirs = new Set<string>();
  private committed = false;

  private constructor(private readonly outDir: string) {
    this.dir = path.join(path.dirname(outDir), `.${path.basename(outDir)}.build-${process.pid}-${Date.now()}`);
  }

  static open(outDir: string): SiteWriter {
    const writer = new SiteWriter(outDir);
    try {
      mkdirSync(path.dirname(outDir), { recursive: true });
      removeLeftovers(outDir);
      mkdirSync(writer.dir, { recursive: true });
    } catch (err) {
      throw writer.error(err);
    }
    return writer;
  }

  /**
   * Writes a file, and with `precompress` its .br and .gz copies (for compressible files).
   * Synchronous on purpose: for thousands of small files one writeFileSync is several times
   * cheaper than fs/promises, and the build has nothing else to do meanwhile.
   */
  async write(file: OutputFile, precompress = false): Promise<void> {
    try {
      this.writeOne(file);
      if (precompress && isCompressible(file.file)) for (const copy of await precompressed(file)) this.writeOne(copy);
    } catch (err) {
      throw this.error(err);
    }
  }

  private writeOne(file: OutputFile): void {
    const absolute = path.join(this.dir, file.file);
    // Paths come from the route table and asset names; none may leave the folder.
    if (!absolute.startsWith(this.dir + path.sep)) throw new Error(`${file.file} is outside the output folder`);
    const dir = path.dirname(absolute);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(absolute, file.contents);
    this.files += 1;
    this.bytes += typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length;
  }

  /** Makes the output path point at the new site, then removes the previous one. */
  commit(): void {
    const parent = path.dirname(this.outDir);
    const link = path.join(parent, `.${path.basename(this.outDir)}.link-${process.pid}-${Date.now()}`);
    let previous: string | undefined;
    let movedAside: string | undefined;
    try {
      symlinkSync(path.basename(this.dir), link);
      const found = lstatSync(this.outDir, { throwIfNoEntry: false });
      if (found?.isSymbolicLink()) {
        previous = path.resolve(parent, readlinkSync(this.outDir));
      } else if (found?.isDirectory() && readdirSync(this.outDir).length === 0) {
        rmdirSync(this.outDir);
      } else if (found) {
        // A folder from before builds were links (or a fresh checkout's): a rename cannot
        // replace a folder by a link, so it is moved aside first. Only this first switch
        // leaves a moment without an output folder.
        movedAside = previous = path.join(parent, `.${path.basename(this.outDir)}.build-${process.pid}-old`);
        renameSync(this.outDir, movedAside);
      }
      try {
        renameSync(link, this.outDir);
      } catch (err) {
        if (movedAside) renameSync(movedAside, this.outDir);
        throw err;
      }
      this.committed = true;
    } catch (err) {
      rmSync(link, { force: true });
      this.abort();
      throw this.error(err);
    }
    if (previous && buildOf(this.outDir, path.basename(previous)) !== undefined) rmSync(previous, { recursive: true, force: true });
  }

  /** Removes the new site's folder: the build failed, and the output stays as it was. */
  abort(): void {
    if (!this.committed) rmSync(this.dir, { recursive: true, force: true });
  }

  private error(err: unknown): StorefrontError {
    return new StorefrontError(
      {
        code: codes.outputFailed,
        file: this.outDir,
        message: `The output could not be written: ${(err as Error).message}`,
        hint: 'Check that the folder is writable and the disk has space.',
      },
      this.committed
        ? 'The new build is in place; only removing the previous one failed.'
        : 'The output folder was not changed: it holds the previous build, if there was one.',
    );
  }
}

/** The process id in the name of a build folder (or link) made beside `outDir`, or undefined for any other name. */
function buildOf(outDir: string, name: string): number | undefined {
  const prefix = `.${path.basename(outDir)}.`;
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(?:build|link)-(\d+)-(?:\d+|old)$/.exec(name.slice(prefix.length));
  return match ? Number(match[1]) : undefined;
}

/**
 * Build folders and links beside `outDir` that no build uses: left by a build that was killed
 * or failed, or by the switch to a new build. The one the output points at stays (read again
 * before each removal: another build may have switched it meanwhile), and so do those of a
 * build still running in another process.
 */
function removeLeftovers(outDir: string): void {
  const parent = path.dirname(outDir);
  const current = () => (lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(outDir) : undefined);
  for (const name of readdirSync(parent)) {
    const pid = buildOf(outDir, name);
    if (pid === undefined || (pid !== process.pid && isRunning(pid))) continue;
    if (name !== current()) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}
