import { lstatSync } from 'node:fs';
import path from 'node:path';

/**
 * The file a local image address (`/images/photo.jpg`, percent-encoded as Markdown writes it,
 * with any query left off) names inside content/images/, when it is a plain file there; never a
 * file outside that folder (`/images/../../secret`), nor a link to one.
 */
export function localImageFile(contentDir: string, address: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(address.replace(/[?#].*$/s, ''));
  } catch {
    return undefined;
  }
  const folder = path.join(contentDir, 'images');
  const file = path.resolve(contentDir, `.${pathname}`);
  if (!file.startsWith(folder + path.sep)) return undefined;
  return lstatSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
}
