import { lstatSync, readdirSync, realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { isBelow } from '../util/inside-project.js';

/** Editors' swap, backup and lock files: saving a file makes several of them. */
const IGNORED = /(^|[\\/])(\.#|#)|(\.swp|\.swx|\.tmp|~)$|(^|[\\/])\.git([\\/]|$)/;

/**
 * Whether a folder may be watched: a real folder, never a link to one (a link in content/ is the
 * build's to judge, and its target is not watched: `content/images/etc -> /etc` would otherwise
 * have dev watch, and list, the whole of /etc). One of the folders dev names may itself be a
 * link when it stays within its parent (content/ -> ./site-content in the project).
 */
function watchable(dir: string, named: boolean): boolean {
  const found = lstatSync(dir, { throwIfNoEntry: false });
  if (!found) return false;
  if (found.isDirectory()) return true;
  if (!named || !found.isSymbolicLink() || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return false;
  try {
    return isBelow(realpathSync.native(path.dirname(dir)), realpathSync.native(dir));
  } catch {
    return false;
  }
}

/**
 * Watches folders and everything under them, and calls `onChange` with the files changed once
 * things have been quiet for `settleMs`: an editor's save is several events, a `git checkout`
 * many. An editor's come within a millisecond or two, so 10 ms of quiet takes a save as one, and
 * costs a tenth of the 0.1 s a price edit may take to show (20 ms made it 0.092 s, 10 ms 0.084 s).
 * Each folder is watched on its own rather than with `recursive: true`, whose Linux implementation
 * in Node 20 watches files and so loses a file that an editor saves by replacing it (vim,
 * `sed -i`, most IDEs); a folder's watch sees every replacement in it.
 */
export function watchFolders(
  folders: readonly string[],
  onChange: (files: string[]) => void,
  settleMs = 10,
): () => void {
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
  const watchTree = (dir: string, named = false) => {
    if (watchers.has(dir) || IGNORED.test(dir) || !watchable(dir, named)) return;
    try {
      const watcher = watch(dir, (_event, name) => {
        const file = name ? path.join(dir, name.toString()) : dir;
        if (IGNORED.test(file)) return;
        // A new folder (a new section of posts, images) is watched as well; a new link to one is not
        // (the change is still reported: the build refuses a link out of the project).
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
  for (const folder of folders) watchTree(folder, true);

  return () => {
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
