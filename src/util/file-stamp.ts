import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Identifies a version of a file without reading it: its size and modification time, what make
 * and Hugo compare. The time is the plain stat's milliseconds, a double precise to a quarter of a
 * microsecond today: a nanosecond (bigint) stat costs half as much again, and a rebuild of a
 * large blog stamps thousands of files.
 */
export function fileStamp(absolute: string): { size: number; stamp: string } {
  const stat = statSync(absolute);
  return { size: stat.size, stamp: `${stat.size}:${stat.mtimeMs}` };
}

/** Stamps of files by their path under a folder, with forward slashes. */
export type Stamps = Map<string, string>;

/**
 * The stamp of every file in a folder (and, if `recursive`, in its subfolders but `skip`); none
 * for a folder that does not exist. Paths are built by concatenation rather than path.join and
 * path.relative, which cost as much as the stat calls for the thousands of files of a large blog.
 */
export function stampFolder(dir: string, recursive: boolean, skip?: string): Stamps {
  const stamps: Stamps = new Map();
  const walk = (absolute: string, relative: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const name = relative + entry.name;
      if (entry.isDirectory()) {
        const folder = `${absolute}${path.sep}${entry.name}`;
        if (recursive && folder !== skip) walk(folder, `${name}/`);
      } else if (entry.isFile()) {
        stamps.set(name, fileStamp(`${absolute}${path.sep}${entry.name}`).stamp);
      }
    }
  };
  try {
    walk(dir, '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || stamps.size > 0) throw err;
  }
  return stamps;
}
