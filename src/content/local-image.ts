import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { codes } from '../errors/codes.js';
import { ProblemList } from '../errors/storefront-error.js';
import { insideProject, resolveInside } from '../util/inside-project.js';

/**
 * The file a local image address (`/images/photo.jpg`, percent-encoded as Markdown writes it,
 * with any query left off) names inside content/images/, as its real path: a plain file there,
 * or a link to a file inside the project; never a file outside that folder
 * (`/images/../../secret`), nor one reached through a link to a folder, nor a link out of the
 * project (see contentImageFiles, which reports those).
 */
export function localImageFile(contentDir: string, address: string, root = path.dirname(contentDir)): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(address.replace(/[?#].*$/s, ''));
  } catch {
    return undefined;
  }
  const folder = path.join(contentDir, 'images');
  const file = path.resolve(contentDir, `.${pathname}`);
  if (!file.startsWith(folder + path.sep)) return undefined;
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

/** The most Node reads into memory at once (kIoMaxLength): a larger file fails with a message naming no file. */
const MAX_READABLE_BYTES = 2 ** 31 - 1;

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
 * folder, is a problem in `problems` and nothing behind it is read. Folder links are not
 * followed at all, as Hugo does in static/: one to `..` would publish the whole project, and
 * one to an ancestor would never end.
 */
export function contentImageFiles(contentDir: string, problems: ProblemList, root = path.dirname(contentDir)): ContentImageFile[] {
  const top = path.join(contentDir, 'images');
  if (!existsSync(top) || !insideProject(root, top, problems)) return [];
  const files: ContentImageFile[] = [];
  const add = (name: string, real: string, bytes: number) => {
    if (bytes <= MAX_READABLE_BYTES) return void files.push({ name, real });
    problems.add({
      code: codes.badImage,
      file: `${path.relative(root, top).split(path.sep).join('/')}/${name}`,
      message: `This file is ${(bytes / 1024 ** 3).toFixed(1)} GiB; the build cannot read or publish a file over 2 GiB.`,
      hint: 'Make it smaller (a picture for the web is a few megabytes at most), or keep it out of content/images/.',
    });
  };
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
      const full = path.join(dir, entry.name);
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(full, `${name}/`);
      else if (entry.isFile()) add(name, full, statSync(full).size);
      else if (entry.isSymbolicLink()) {
        const real = insideProject(root, full, problems);
        if (!real) continue;
        const target = statSync(real);
        if (target.isFile()) add(name, real, target.size);
        else {
          const folder = target.isDirectory();
          problems.add({
            code: codes.outsideProject,
            file: path.relative(root, full).split(path.sep).join('/'),
            message: folder
              ? `This is a symbolic link to the folder ${real}: the build does not follow links to folders in content/images/.`
              : `This is a symbolic link to ${real}, ${target.isFIFO() ? 'a named pipe (FIFO)' : 'a socket or a device'}, not a file: it cannot be published.`,
            hint: folder ? 'Move or copy the folder into content/images/ (a link to each file inside the project is followed).' : 'Link to an image file, or remove the link.',
          });
        }
      }
    }
  };
  walk(top, '');
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The same files, for a caller that only reads them: a link that was fine at the check but is not now stops the build. */
export function checkedContentImageFiles(contentDir: string): ContentImageFile[] {
  const problems = new ProblemList();
  const files = contentImageFiles(contentDir, problems);
  problems.throwIfAny();
  return files;
}
