import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import { ProblemList } from '../errors/storefront-error.js';
import { insideProject, resolveInside, isBelow } from '../util/inside-project.js';
import { checkFile, type FileKind } from '../util/read-bounded.js';

/**
 * A file of content/images/: published as it is, so at most 25 MB, Cloudflare Pages' limit for
 * one file (the strictest host's); the images of posts are read whole by sharp.
 */
export const IMAGE_FILE: FileKind = {
  name: 'a file in content/images/',
  limit: 25 * 1024 * 1024,
  overLimit: 'imageFileOverLimit',
  grewPastLimit: 'imageFileGrewPastLimit',
};

/**
 * The file a local image address (`/images/photo.jpg`, percent-encoded as Markdown writes it,
 * with any query left off) names inside content/images/, as its real path: a plain file there,
 * or a link to a file inside the project; never a file outside that folder
 * (`/images/../../secret`), nor one reached through a link to a folder, nor a link out of the
 * project (see contentImageFiles, which reports those).
 */
export function localImageFile(
  contentDir: string,
  address: string,
  root = path.dirname(contentDir),
): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(address.replace(/[?#].*$/s, ''));
  } catch {
    return undefined;
  }
  const folder = path.join(contentDir, 'images');
  const file = path.resolve(contentDir, `.${pathname}`);
  if (!isBelow(folder, file)) return undefined;
  // Every folder between content/images/ and the file is a folder, not a link to one.
  let current = folder;
  for (const part of path.relative(folder, path.dirname(file)).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    if (!lstatSync(current, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  }
  const found = lstatSync(file, { throwIfNoEntry: false });
  if (!found || !(found.isFile() || found.isSymbolicLink())) return undefined;
  const resolved = resolveInside(file, root);
  return resolved.inside && statSync(resolved.real).isFile() ? resolved.real : undefined;
}

/** One file of content/images/: its name there (with `/`) and where to read it. */
export interface ContentImageFile {
  name: string;
  real: string;
}

/**
 * The files of content/images/ that the site publishes at /images/, each at its real path.
 * Hidden names (.env, .DS_Store, a .git folder) are left out, and so are names starting with _,
 * which hosts keep for their own files and do not serve (see route-table.ts). A link to a file
 * is followed when the file is inside the project; a link out of the project, and any link to a
 * folder, is a problem in `problems` and nothing behind it is read; so is anything but a regular
 * file (a pipe, a socket, a device) and a file over IMAGE_FILE's limit. Folder links are not
 * followed at all, as Hugo does in static/: one to `..` would publish the whole project, and
 * one to an ancestor would never end.
 */
export function contentImageFiles(
  contentDir: string,
  problems: ProblemList,
  root = path.dirname(contentDir),
): ContentImageFile[] {
  const top = path.join(contentDir, 'images');
  if (!existsSync(top) || !insideProject(root, top, problems)) return [];
  const files: ContentImageFile[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
      const full = path.join(dir, entry.name);
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        walk(full, `${name}/`);
        continue;
      }
      const link = entry.isSymbolicLink();
      const real = link ? insideProject(root, full, problems) : full;
      if (!real) continue;
      const shown = path.relative(root, full).split(path.sep).join('/');
      // A pipe, a socket or a device is refused by name, and a file over the limit by its size, before
      // anything reads it.
      if (link && statSync(real).isDirectory()) {
        problems.add(problem('imageFolderLink', { target: real }, { file: shown }));
      } else if (checkFile(real, shown, IMAGE_FILE, problems, full) !== undefined) files.push({ name, real });
    }
  };
  walk(top, '');
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The same files, for a caller that only reads them: a link that was fine at the check but is not now
 * stops the build.
 */
export function checkedContentImageFiles(contentDir: string): ContentImageFile[] {
  const problems = new ProblemList();
  const files = contentImageFiles(contentDir, problems);
  problems.throwIfAny();
  return files;
}
