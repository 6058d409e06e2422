import { statSync } from 'node:fs';
import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import type { Problem } from '../errors/storefront-error.js';

const isFolder = (dir: string) => statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The one problem of a command run outside a project folder (no `content/` under the root):
 * from a home folder, from `content/` itself, from a folder of templates. Without it every file
 * the build needs would be reported missing, each with advice to restore it from git, though
 * nothing is missing. The hint names the project folder when the root lies inside one.
 */
export function noContentFolder(root: string, contentDir = path.join(root, 'content')): Problem | undefined {
  if (isFolder(contentDir)) return undefined;
  const here = path.resolve(root);
  let project: string | undefined;
  for (let dir = path.dirname(here); ; dir = path.dirname(dir)) {
    // A project's content/ holds site.yaml: any other folder named content is not one.
    if (statSync(path.join(dir, 'content', 'site.yaml'), { throwIfNoEntry: false })?.isFile()) {
      project = dir;
      break;
    }
    if (dir === path.dirname(dir)) break;
  }
  if (!project) return problem('noContentFolder', { folder: here }, { file: here });
  const relative = path.relative(process.cwd(), project) || '.';
  // Run from inside the project: cd there; given --root: give the project instead.
  const fromHere = here === path.resolve(process.cwd());
  return problem('noContentFolderInsideProject', { folder: here, project, relative, fromHere }, { file: here });
}
