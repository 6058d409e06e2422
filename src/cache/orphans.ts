import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Removes the cache files of one kind (`prefix`-*`extension`) whose folder is gone: each output
 * folder and posts folder has a file of its own, and a folder built once (a benchmark's, a
 * test's temporary one) would otherwise leave its file behind for good. Each file starts with
 * `{"folder":"..."`, so only its first bytes are read; its log (see journaled-file.ts) goes with it.
 */
export function removeOrphans(cacheDir: string, prefix: string, keep: string, extension = '.json'): void {
  let names: string[];
  try {
    names = readdirSync(cacheDir).filter((name) => name.startsWith(`${prefix}-`) && name.endsWith(extension));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(cacheDir, name);
    if (file === keep) continue;
    try {
      const folder = folderOf(file);
      if (folder === undefined || !existsSync(folder)) {
        unlinkSync(file);
        rmSync(`${file}.log`, { force: true });
      }
    } catch {
      // Removed meanwhile by another build, or unreadable: left as it is.
    }
  }
}

function folderOf(file: string): string | undefined {
  const head = Buffer.alloc(4096);
  const fd = openSync(file, 'r');
  try {
    const length = readSync(fd, head, 0, head.length, 0);
    const match = /^\{"folder":("(?:[^"\\]|\\.)*")/.exec(head.toString('utf8', 0, length));
    return match ? (JSON.parse(match[1]!) as string) : undefined;
  } finally {
    closeSync(fd);
  }
}
