import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Editors' swap, backup and lock files: saving a file makes several of them. */
const IGNORED = /(^|[\\/])(\.#|#)|(\.swp|\.swx|\.tmp|~)$|[\\/]\.git[\\/]|^\.git[\\/]/;

/**
 * Watches folders (recursively) and calls `onChange` with the files changed, once things have
 * been quiet for `settleMs`: an editor's save is several events, and a `git checkout` many.
 */
export function watchFolders(folders: readonly string[], onChange: (files: string[]) => void, settleMs = 60): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    const watcher = watch(folder, { recursive: true }, (_event, name) => {
      const file = name ? path.join(folder, name.toString()) : folder;
      if (IGNORED.test(file)) return;
      changed.add(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed];
        changed.clear();
        onChange(files);
      }, settleMs);
    });
    watchers.push(watcher);
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
