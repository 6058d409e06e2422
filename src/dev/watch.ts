import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Editors' swap, backup and lock files: saving a file makes several of them. */
const IGNORED = /(^|[\\/])(\.#|#)|(\.swp|\.swx|\.tmp|~)$|(^|[\\/])\.git([\\/]|$)/;

/**
 * Watches folders and everything under them, and calls `onChange` with the files changed once
 * things have been quiet for `settleMs`: an editor's save is several events, a `git checkout`
 * many. Each folder is watched on its own rather than with `recursive: true`, whose Linux
 * implementation in Node 20 watches files and so loses a file that an editor saves by
 * replacing it (vim, `sed -i`, most IDEs); a folder's watch sees every replacement in it.
 */
export function watchFolders(folders: readonly string[], onChange: (files: string[]) => void, settleMs = 20): () => void {
  const changed = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;

  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, settleMs);
  };
  const watchTree = (dir: string) => {
    if (watchers.has(dir) || IGNORED.test(dir) || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
    try {
      const watcher = watch(dir, (_event, name) => {
        const file = name ? path.join(dir, name.toString()) : dir;
        if (IGNORED.test(file)) return;
        // A new folder (a new section of posts, images) is watched as well.
        watchTree(file);
        changed.add(file);
        settle();
      });
      // A watched folder that is removed ends its watcher with an error on some systems.
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(dir);
      });
      watchers.set(dir, watcher);
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) watchTree(path.join(dir, entry.name));
      }
    } catch {
      // Removed while being watched: its parent's watcher reports that.
    }
  };
  for (const folder of folders) watchTree(folder);

  return () => {
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
