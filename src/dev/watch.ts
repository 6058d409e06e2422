import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import { isBelow } from '../util/inside-project.js';

/** Editors' swap, backup and lock files: saving a file makes several of them. */
const IGNORED = /(^|[\\/])(\.#|#)|(\.swp|\.swx|\.tmp|~)$|(^|[\\/])\.git([\\/]|$)/;

/**
 * The folder to watch for one that dev names: itself, or, when it is a link to a folder within
 * its parent (content/ -> ./site-content in the project), the link's target. Any other link is
 * not watched: its target is the build's to judge, and `content -> /` would have dev watch, and
 * list, the whole disk.
 */
function watchedFolder(dir: string): string | undefined {
  const found = lstatSync(dir, { throwIfNoEntry: false });
  if (!found) return undefined;
  if (found.isDirectory()) return dir;
  if (!found.isSymbolicLink()) return undefined;
  try {
    const target = realpathSync.native(dir);
    const within = isBelow(realpathSync.native(path.dirname(dir)), target) && lstatSync(target).isDirectory();
    return within ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Watches folders and everything under them with chokidar, following no link (a link to a
 * folder in content/ is the build's to judge; its target is never watched), and calls `onChange`
 * with the files changed once things have been quiet for `settleMs`: an editor's save is several
 * events, a `git checkout` many. Files are named under the folders as given, also when one was
 * a link watched through its target.
 */
export function watchFolders(
  folders: readonly string[],
  onChange: (files: string[]) => void,
  settleMs = 20,
): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const named = new Map<string, string>();
  for (const folder of folders) {
    const target = watchedFolder(folder);
    if (target) named.set(target, folder);
  }
  /** The path under the folder as dev named it. */
  const asNamed = (file: string): string => {
    for (const [target, folder] of named) {
      if (file === target || isBelow(target, file)) return path.join(folder, path.relative(target, file));
    }
    return file;
  };
  const watcher = watch([...named.keys()], {
    ignoreInitial: true,
    followSymlinks: false,
    // Every event at once (atomic would hold a removal back 100 ms, in case the file comes back):
    // `settleMs` gathers a save's several events.
    atomic: false,
    ignored: (file) => IGNORED.test(file),
  });
  let ready = false;
  watcher.on('ready', () => {
    ready = true;
  });
  watcher.on('all', (event, file) => {
    // A link is not followed, but chokidar names the links it finds at the start, and the system
    // reports changes in a link's target as changes of the link: only the link's own making and
    // removal while dev runs count.
    const link = lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink();
    if (link && (event === 'change' || !ready)) return;
    changed.add(asNamed(file));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, settleMs);
  });
  // A folder removed while watched, a watch limit reached: the next save is seen, or dev restarts.
  watcher.on('error', () => {});
  return () => {
    clearTimeout(timer);
    void watcher.close();
  };
}
